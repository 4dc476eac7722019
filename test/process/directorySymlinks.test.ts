// A repository can commit `.agentsync`, `.agentsync/audit` or `.agentsync/requests/rejected` as symlinks to
// anywhere. AgentSync must refuse to write through them (store_unsafe), as it does for symlinked files, and
// leave the place they point to untouched. The CLI runs as a real process on real folders.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { CLI, runCliSync, tempWorkspace } from './processHarness';

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function createArgs(dir: string): string[] {
  return ['--dir', dir, '--json', 'create', '--from', 'claude', '--to', 'codex', '--summary', 'write tests'];
}

/** Every file below `dir`, relative, so a failure shows what was written outside. */
function filesBelow(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe('symlinked folders in .agentsync are refused, nothing is written outside (docs/contract.md §12)', function () {
  this.timeout(120_000);
  let ws: string;
  let outside: string;
  let layout: WorkspaceLayout;

  beforeEach(() => {
    ws = tempWorkspace('dirlink');
    outside = tempWorkspace('outside');
    layout = new WorkspaceLayout(ws);
  });

  afterEach(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('.agentsync itself a symlink: create and init are refused with store_unsafe', () => {
    fs.symlinkSync(outside, layout.dataDir, 'dir');
    const created = cli(createArgs(ws));
    assert.equal(created.code, 1, created.stdout + created.stderr);
    const response = JSON.parse(created.stdout) as { ok: boolean; reason: string; message: string };
    assert.equal(response.ok, false);
    assert.equal(response.reason, 'store_unsafe');
    assert.match(response.message, /\.agentsync is not a folder \(it is a symlink\).*Replace it with a real folder/);

    const init = cli(['--dir', ws, 'init']);
    assert.equal(init.code, 1, init.stdout + init.stderr);
    assert.match(init.stderr, /\.agentsync is not a folder \(it is a symlink\)/);
    assert.deepEqual(filesBelow(outside), []);
  });

  it('.agentsync/audit a symlink: the request is refused before the store changes', () => {
    runCliSync(['--dir', ws, 'init']);
    const storeBefore = fs.readFileSync(layout.handoffsFile, 'utf8');
    fs.rmSync(layout.auditDir, { recursive: true });
    fs.symlinkSync(outside, layout.auditDir, 'dir');

    const created = cli(createArgs(ws));
    assert.equal(created.code, 1, created.stdout + created.stderr);
    const response = JSON.parse(created.stdout) as { reason: string; message: string };
    assert.equal(response.reason, 'store_unsafe');
    assert.match(response.message, /audit is not a folder \(it is a symlink\)/);
    assert.equal(fs.readFileSync(layout.handoffsFile, 'utf8'), storeBefore, 'the store is unchanged');
    assert.deepEqual(filesBelow(outside), []);
  });

  it('.agentsync/audit a symlink: the drop zone answers store_unsafe and writes nothing outside', () => {
    runCliSync(['--dir', ws, 'init']);
    fs.rmSync(layout.auditDir, { recursive: true });
    fs.symlinkSync(outside, layout.auditDir, 'dir');
    // A write (reads log to the runtime .agentsync/reads.jsonl, not to audit/, so they are unaffected).
    const create = {
      action: 'createHandoff',
      request_id: 'r1',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'x' },
    };
    fs.writeFileSync(path.join(layout.requestsDir, 'r1.json'), JSON.stringify(create));

    const watch = cli(['--dir', ws, 'watch', '--once']);
    assert.equal(watch.code, 0, watch.stdout + watch.stderr);
    const answer = JSON.parse(fs.readFileSync(path.join(layout.responsesDir, 'r1.json'), 'utf8')) as { ok: boolean; reason: string };
    assert.equal(answer.ok, false);
    assert.equal(answer.reason, 'store_unsafe');
    assert.deepEqual(filesBelow(outside), []);
  });

  it('.agentsync/requests/rejected a symlink: a request to move aside is not moved through it', () => {
    runCliSync(['--dir', ws, 'init']);
    fs.symlinkSync(outside, layout.rejectedDir, 'dir');
    // A folder named *.json cannot be answered: the drop zone moves such an entry to requests/rejected/.
    fs.mkdirSync(path.join(layout.requestsDir, 'not-a-file.json'));

    const watch = cli(['--dir', ws, 'watch', '--once']);
    assert.equal(watch.code, 0, watch.stdout + watch.stderr);
    assert.match(watch.stderr, /requests\/rejected is not a folder \(it is a symlink\).*Replace it with a real folder/);
    assert.deepEqual(filesBelow(outside), []);
  });

  it('.agentsync a symlink: the drop zone is off and writes nothing outside', () => {
    fs.symlinkSync(outside, layout.dataDir, 'dir');
    const watch = cli(['--dir', ws, 'watch', '--once']);
    assert.match(watch.stderr, /\.agentsync is not a folder \(it is a symlink\)/);
    assert.deepEqual(filesBelow(outside), []);
  });
});
