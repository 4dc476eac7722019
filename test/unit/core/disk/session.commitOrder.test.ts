// Session actions write AgentTracker.md and state.json only after the store batch commits: a batch that fails at
// commit leaves both files as they were. A session-only batch changes no record, so the one commit failure left to it
// is fencing: its lock was taken over (lock_lost); ledger and audit failures after that point are best effort.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { FileLock } from '../../../../src/core/disk/fileLock';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

describe('session actions: derived files only after the store commit', () => {
  after(removeTempDirs);

  it('startSession refused at commit writes neither the tracker line nor the session in state.json', async () => {
    const ws = new TestWorkspace();
    fs.writeFileSync(ws.layout.trackerFile, '# Agent Tracker\n\n');
    const trackerBefore = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    const lock = (ws.store as unknown as { local: { lock: { current: FileLock } } }).local.lock.current;
    const original = lock.assertHeld.bind(lock);
    lock.assertHeld = () => {
      // Another process took the lock over while this batch ran (its holder froze past the lease).
      lock.assertHeld = original;
      fs.rmSync(ws.layout.lockFile);
      fs.writeFileSync(ws.layout.lockFile, JSON.stringify({ pid: 1, host: 'elsewhere', ns: 'pid:[4026599999]', token: 'thief' }));
      original();
    };
    const r = await ws.dispatch({ action: 'startSession', request_id: 'start-1', agent: 'claude', goal: 'fix the login timeout' });
    assert.equal(r.reason, 'lock_lost', JSON.stringify(r));
    assert.equal(fs.readFileSync(ws.layout.trackerFile, 'utf8'), trackerBefore, 'AgentTracker.md untouched');
    assert.equal(
      fs.existsSync(ws.layout.stateFile) && /fix the login timeout/.test(fs.readFileSync(ws.layout.stateFile, 'utf8')),
      false,
      'no session in state.json',
    );

    fs.rmSync(ws.layout.lockFile);
    const ok = await ws.dispatch({ action: 'startSession', request_id: 'start-1', agent: 'claude', goal: 'fix the login timeout' });
    assert.equal(ok.ok, true, JSON.stringify(ok));
    assert.match(fs.readFileSync(ws.layout.trackerFile, 'utf8'), /fix the login timeout/);
    assert.match(fs.readFileSync(ws.layout.stateFile, 'utf8'), /fix the login timeout/);
  });

  it('two sessions started in one batch are both kept in state.json', async () => {
    const ws = new TestWorkspace();
    const [a, b] = await Promise.all([
      ws.dispatch({ action: 'startSession', agent: 'claude', goal: 'goal A' }),
      ws.dispatch({ action: 'startSession', agent: 'codex', goal: 'goal B' }),
    ]);
    assert.equal(a.ok && b.ok, true);
    const state = JSON.parse(fs.readFileSync(ws.layout.stateFile, 'utf8')) as { activeSessions: Record<string, { goal: string }> };
    assert.deepEqual(Object.keys(state.activeSessions).sort(), ['claude', 'codex']);
    const tracker = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    assert.match(tracker, /goal A/);
    assert.match(tracker, /goal B/);
  });
});
