// Runs a list of `agentsync` command lines in one process (runCli from dist/cli.js, as bin/agentsync.js does), so a
// bench measures the sync protocol's own cost per write rather than Node's start-up, optionally after a start file
// appears (so several runners on several clones start together).
// usage: node bench/sync-runner.cjs <startFile | -> <jobs.json>
//   jobs.json: [{ "argv": [...cli args], "stdin"?: "<text for `request -`>" }, ...]
// stdout: "READY", "GO", then per job one line: `<ms> <the JSON answer>`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [startFile, jobsFile] = process.argv.slice(2);
if (!startFile || !jobsFile) {
  process.stderr.write('usage: node bench/sync-runner.cjs <startFile | -> <jobs.json>\n');
  process.exit(2);
}
const jobs = JSON.parse(fs.readFileSync(jobsFile, 'utf8'));
const { runCli } = require(path.join(__dirname, '../dist/cli.js'));

const say = (line) => fs.writeSync(1, line + '\n');
say('READY');
if (startFile !== '-') {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while (!fs.existsSync(startFile)) Atomics.wait(nap, 0, 0, 1);
}
say('GO');

(async () => {
  for (const job of jobs) {
    let printed = '';
    const io = {
      out: (t) => (printed += t.endsWith('\n') ? t : t + '\n'),
      err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
      readStdin: async () => job.stdin ?? '',
    };
    const t0 = performance.now();
    await runCli(job.argv, io);
    const ms = performance.now() - t0;
    say(
      `${ms.toFixed(2)} ${
        printed
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .pop() ?? '{}'
      }`,
    );
  }
})().catch((e) => {
  process.stderr.write(`sync-runner: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 3;
});
