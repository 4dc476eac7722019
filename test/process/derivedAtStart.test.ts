// Derived files at start (docs/contract.md §2): AgentTracker.md's section and state.json, deleted, edited by hand or
// left behind by a store that changed without AgentSync, are rebuilt by the next start (a read-only verb such as
// `agentsync list`, or `watch`), not only by the next write; a workspace whose files are current is not written.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { initWorkspace, runCliIn, runCliSync } from './processHarness';

function initWithHandoff(): { ws: string; id: string; tracker: string; state: string } {
  const ws = initWorkspace('derived');
  const id = runCliSync(['--dir', ws, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'Review the auth fix', '--quiet']).trim();
  return { ws, id, tracker: path.join(ws, 'AgentTracker.md'), state: path.join(ws, '.agentsync/state.json') };
}

function list(ws: string): void {
  const r = runCliIn(ws, ['list']);
  assert.equal(r.code, 0, r.stderr);
}

describe('derived files rebuilt at start (process)', function () {
  this.timeout(120_000);

  it('a deleted AgentTracker.md is rebuilt by `agentsync list`', () => {
    const { ws, id, tracker } = initWithHandoff();
    fs.rmSync(tracker);
    list(ws);
    assert.ok(fs.existsSync(tracker), 'the tracker is back');
    assert.match(fs.readFileSync(tracker, 'utf8'), new RegExp(`${id} \\| from: Codex \\| to: Claude`));
  });

  it("a hand edit of the handoffs section is undone by `agentsync list`; the humans' text stays", () => {
    const { ws, id, tracker } = initWithHandoff();
    const edited = fs
      .readFileSync(tracker, 'utf8')
      .replace(`${id} |`, 'HO-19990101-999 |')
      .replace('## Agent Handoffs', '## Our notes\n\nMy own notes.\n\n## Agent Handoffs');
    fs.writeFileSync(tracker, edited);
    list(ws);
    const text = fs.readFileSync(tracker, 'utf8');
    assert.match(text, new RegExp(`${id} \\| from: Codex`));
    assert.doesNotMatch(text, /HO-19990101-999/);
    assert.match(text, /My own notes\./);
  });

  it('a deleted state.json, and a store changed without AgentSync, are rebuilt by `agentsync list`', () => {
    const { ws, id, tracker, state } = initWithHandoff();
    fs.rmSync(state);
    list(ws);
    assert.equal((JSON.parse(fs.readFileSync(state, 'utf8')) as { openHandoffCount: number }).openHandoffCount, 1);
    const storeFile = path.join(ws, '.agentsync/handoffs.json');
    fs.writeFileSync(storeFile, fs.readFileSync(storeFile, 'utf8').replace('Review the auth fix', 'Review the session fix'));
    list(ws);
    assert.match(fs.readFileSync(tracker, 'utf8'), /Review the session fix/);
    assert.match(fs.readFileSync(tracker, 'utf8'), new RegExp(id));
  });

  it('`agentsync watch --once` rebuilds them as it starts', () => {
    const { ws, id, tracker } = initWithHandoff();
    fs.rmSync(tracker);
    const r = runCliIn(ws, ['watch', '--once']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(fs.readFileSync(tracker, 'utf8'), new RegExp(id));
  });

  it('current files are not written by a start', () => {
    const { ws, tracker, state } = initWithHandoff();
    list(ws); // the first start after create: everything current
    const before = [
      fs.statSync(tracker).mtimeMs,
      fs.statSync(state).mtimeMs,
      fs.readFileSync(tracker, 'utf8'),
      fs.readFileSync(state, 'utf8'),
    ];
    list(ws);
    assert.deepEqual(
      [fs.statSync(tracker).mtimeMs, fs.statSync(state).mtimeMs, fs.readFileSync(tracker, 'utf8'), fs.readFileSync(state, 'utf8')],
      before,
    );
  });

  it('a tracker still as the last render left it (its recorded stat) is not read at start: state.json says so', () => {
    const { ws, tracker, state } = initWithHandoff();
    const stateJson = () => JSON.parse(fs.readFileSync(state, 'utf8')) as { trackerSection: { sha256: string; stat?: string } };
    const st = fs.lstatSync(tracker, { bigint: true });
    assert.equal(stateJson().trackerSection.stat, `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
    // A proof whose hash no longer matches the bytes: only a start that hashes the tracker would rebuild it.
    const before = fs.readFileSync(tracker, 'utf8');
    const changed = stateJson();
    changed.trackerSection.sha256 = '0'.repeat(64);
    fs.writeFileSync(state, JSON.stringify(changed, null, 2) + '\n');
    list(ws);
    assert.equal(stateJson().trackerSection.sha256, '0'.repeat(64), 'state.json was rewritten: the start read the tracker');
    assert.equal(fs.readFileSync(tracker, 'utf8'), before);
  });

  it('a hand edit that keeps the size and the modification time is still found and undone at start', function () {
    if (process.platform === 'win32') this.skip(); // touch -r, which sets the time back to the nanosecond
    const { ws, id, tracker } = initWithHandoff();
    const text = fs.readFileSync(tracker, 'utf8');
    const ref = path.join(ws, 'times.ref');
    fs.copyFileSync(tracker, ref);
    assert.equal(spawnSync('touch', ['-r', tracker, ref]).status, 0);
    fs.writeFileSync(tracker, text.replace(`${id} |`, 'HO-19990101-999 |'.slice(0, id.length + 2)));
    assert.equal(spawnSync('touch', ['-r', ref, tracker]).status, 0);
    const was = fs.statSync(ref, { bigint: true });
    const now = fs.statSync(tracker, { bigint: true });
    assert.deepEqual([now.size, now.mtimeNs], [BigInt(Buffer.byteLength(text)), was.mtimeNs]);
    list(ws);
    assert.match(fs.readFileSync(tracker, 'utf8'), new RegExp(`${id} \\| from: Codex`));
  });
});
