// Health checks (commands.build|test|deploy): run without a shell, split like a POSIX command line, with a time
// limit (the whole process group is stopped) and the tail of the output captured.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandArgv, splitCommandLine } from '../../../../../src/core/domain/commandLine';
import { runCommand, runHealthChecks, stripAnsi } from '../../../../../src/core/requests/sessions/healthChecks';
import { makeTempDir, removeTempDirs } from '../../../helpers/testWorkspace';
import { processAlive } from '../../../../../src/core/disk/processAlive';

/** Exited, or a zombie nobody reaped yet (its timers no longer run). */
function processGone(pid: number): boolean {
  if (!processAlive(pid)) return true;
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const node = process.execPath;

describe('health checks', () => {
  after(removeTempDirs);

  it('splits a command string into words: quotes group, backslash escapes, no shell syntax', () => {
    assert.deepEqual(splitCommandLine('npm run test'), ['npm', 'run', 'test']);
    assert.deepEqual(splitCommandLine(`  npm   run "unit tests" -- --grep 'a b'  `), ['npm', 'run', 'unit tests', '--', '--grep', 'a b']);
    assert.deepEqual(splitCommandLine('echo a\\ b "say \\"hi\\"" \'it\'\'s\' ""'), ['echo', 'a b', 'say "hi"', 'its', '']);
    assert.deepEqual(splitCommandLine('make && rm -rf / ; $(x) | y > z'), [
      'make',
      '&&',
      'rm',
      '-rf',
      '/',
      ';',
      '$(x)',
      '|',
      'y',
      '>',
      'z',
    ]);
    assert.throws(() => splitCommandLine('npm "test'), /unclosed " quote/);
    assert.equal(commandArgv(undefined), null);
    assert.equal(commandArgv('   '), null);
    assert.deepEqual(commandArgv(['npm', 'test']), ['npm', 'test']);
  });

  it('Pass on exit 0, Fail with the output (stdout and stderr, colours removed) otherwise; Not configured when absent', async () => {
    const dir = makeTempDir();
    const report = await runHealthChecks(dir, {
      build: [node, '-e', 'console.log("built")'],
      test: `"${node}" -e "console.log('\\u001b[31mred failure\\u001b[0m'); console.error('on stderr'); process.exit(3)"`,
    });
    assert.equal(report.Build.status, 'Pass');
    assert.equal(report.Build.output.trim(), 'built');
    assert.equal(report.Tests.status, 'Fail');
    assert.equal(report.Tests.exitCode, 3);
    assert.match(report.Tests.output, /red failure/);
    assert.match(report.Tests.output, /on stderr/);
    assert.ok(!report.Tests.output.includes('\u001b'), 'ANSI colours removed');
    assert.equal(report.Deploy.status, 'Not configured');
    assert.equal(stripAnsi('\u001b[1;32mok\u001b[0m'), 'ok');
  });

  it('runs without a shell: `; touch pwned` is passed to the program as words, never run', async () => {
    const dir = makeTempDir();
    const report = await runHealthChecks(dir, { build: `"${node}" -e "process.exit(0)" ; touch pwned` });
    assert.equal(report.Build.status, 'Pass');
    assert.equal(fs.existsSync(path.join(dir, 'pwned')), false);
    assert.deepEqual(report.Build.command!.slice(-3), [';', 'touch', 'pwned']);
  });

  it('a command over its time limit is stopped, with what it started, and counts as Fail (timed out)', async () => {
    const dir = makeTempDir();
    const marker = path.join(dir, 'grandchild-survived');
    // The check starts a grandchild that would write a file after 4 s; the time-out must stop both. The limit
    // leaves a loaded machine time to start node and print 'started' first.
    const grandchild = `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 4000)`;
    const script =
      `const g = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'inherit' }); ` +
      `console.log('started grandchild ' + g.pid); ` +
      `setTimeout(() => {}, 60000)`;
    const started = Date.now();
    const r = await runCommand(dir, [node, '-e', script], { timeoutMs: 2000 });
    assert.ok(Date.now() - started < 10_000);
    assert.equal(r.status, 'Fail');
    assert.equal(r.timedOut, true);
    assert.match(r.output, /started[\s\S]*timed out after 2000 ms/);
    // Settled once the grandchild is gone: stopped by the time-out, or (the bug) after writing the marker at 4 s.
    const pid = Number(/started grandchild (\d+)/.exec(r.output)![1]);
    const deadline = Date.now() + 15_000;
    while (!processGone(pid)) {
      assert.ok(Date.now() < deadline, `the grandchild ${pid} still runs after 15 s`);
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.equal(fs.existsSync(marker), false, 'the grandchild was stopped too');
  });

  it('a program that does not exist is a Fail that says what to check; a bad quote is a Fail, not a crash', async () => {
    const dir = makeTempDir();
    const report = await runHealthChecks(dir, { build: 'no-such-program-agentsync --x', test: 'npm "run' });
    assert.equal(report.Build.status, 'Fail');
    assert.match(report.Build.output, /could not start no-such-program-agentsync: ENOENT/);
    assert.equal(report.Tests.status, 'Fail');
    assert.match(report.Tests.output, /unclosed " quote/);
  });

  it('keeps only the tail of a huge output', async () => {
    const dir = makeTempDir();
    const r = await runCommand(dir, [node, '-e', 'for (let i = 0; i < 200000; i++) console.log("line " + i); process.exitCode = 1'], {
      maxOutputBytes: 4096,
    });
    assert.equal(r.status, 'Fail');
    assert.ok(r.output.length <= 4096);
    assert.match(r.output, /line 199999\n$/);
  });
});
