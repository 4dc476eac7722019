// The tool hook's answer goes out through the CLI's output rule (docs/agentsync-documentation.md, "CLI"): stdout on a
// full disk is said in one line on stderr with exit 1, never a crash with a stack trace; a reader that went away ends
// the hook quietly. Real processes: `agentsync hook pre-tool-use` (dist/hook.js) with a radar hit to answer.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, initWorkspace, runCliIn, runCliSync } from './processHarness';

function contested(): string {
  const ws = initWorkspace('hook-output');
  const cfgFile = path.join(ws, '.agentsync.json');
  const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8')) as { agentCapabilities: Record<string, string[]> };
  cfg.agentCapabilities.reviewer ??= ['code_patch'];
  fs.writeFileSync(cfgFile, JSON.stringify(cfg, null, 2));
  const made = JSON.parse(
    runCliIn(ws, ['--json', 'create', '--from', 'human', '--to', 'reviewer', '--summary', 'held', '--files', 'src/a.ts']).stdout,
  ) as { data: { handoff: { handoff_id: string } } };
  runCliSync(['--dir', ws, 'claim', made.data.handoff.handoff_id, '--agent', 'reviewer']);
  return ws;
}

const input = (ws: string) =>
  JSON.stringify({
    session_id: 's',
    cwd: ws,
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: path.join(ws, 'src/a.ts'), content: 'x' },
  });
const hookArgs = [CLI, 'hook', 'pre-tool-use', '--agent', 'claude', '--format', 'claude'];

describe('the tool hook writes its answer through the CLI output rule (process)', function () {
  this.timeout(60_000);

  it('the answer is there when stdout works (the control)', () => {
    const ws = contested();
    const r = spawnSync(process.execPath, hookArgs, { cwd: ws, input: input(ws), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /conflict radar/);
  });

  // /dev/full: Linux, where the process tier runs.
  it('stdout on a full disk (/dev/full): one line on stderr, exit 1, no stack trace', () => {
    const ws = contested();
    const full = fs.openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, hookArgs, { cwd: ws, input: input(ws), stdio: ['pipe', full, 'pipe'], encoding: 'utf8' });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /^agentsync: could not write the output: .*ENOSPC/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    } finally {
      fs.closeSync(full);
    }
  });

  it('a reader that went away (EPIPE): the hook ends quietly, without a stack trace', async () => {
    const ws = contested();
    const p = spawn(process.execPath, hookArgs, { cwd: ws, stdio: ['pipe', 'pipe', 'pipe'] });
    p.stdout.destroy();
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.stdin.end(input(ws));
    const code = await new Promise<number | null>((resolve) => p.on('exit', resolve));
    assert.doesNotMatch(err, /EPIPE|\n\s+at /, err);
    assert.equal(code, 0, err);
  });
});
