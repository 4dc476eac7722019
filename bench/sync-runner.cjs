// Runs a list of `agentsync` command lines in one process (runCli from dist/cli.js, as bin/agentsync.js does), so a
// bench measures the sync protocol's own cost per write rather than Node's start-up, optionally after a start file
// appears (so several runners on several clones start together).
// usage: node bench/sync-runner.cjs <startFile | -> <jobs.json> [<deadline, ms since the epoch>]
//   jobs.json: [{ "argv": [...cli args], "stdin"?: "<text for `request -`>", "du"?: "<folder>" }, ...]
// stdout: "READY", "GO", then per job one line: `<ms> <the JSON answer>`, followed by `DU <bytes>` (every file under
// the job's `du` folder, e.g. a remote's objects/, measured after the job) when it names one; past the deadline no
// further job starts and `STOPPED <jobs run>` is printed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [startFile, jobsFile, deadline] = process.argv.slice(2);
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

/** Bytes of every file under `dir`. */
function treeBytes(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath ?? e.path, e.name)).size;
  }
  return total;
}

(async () => {
  for (const [n, job] of jobs.entries()) {
    if (deadline && Date.now() > Number(deadline)) {
      say(`STOPPED ${n}`);
      break;
    }
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
    if (job.du) say(`DU ${treeBytes(job.du)}`);
  }
})().catch((e) => {
  process.stderr.write(`sync-runner: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 3;
});
