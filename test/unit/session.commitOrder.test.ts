// Session actions write AgentTracker.md and state.json only after the store batch commits: a batch that fails at
// commit (here: the ledger cannot be appended, so the batch is refused) leaves both files as they were.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { removeTempDirs, TestWorkspace } from './helpers/testWorkspace';

describe('session actions: derived files only after the store commit', () => {
  after(removeTempDirs);

  it('startSession refused at commit writes neither the tracker line nor the session in state.json', async () => {
    const ws = new TestWorkspace();
    fs.writeFileSync(ws.layout.trackerFile, '# Agent Tracker\n\n');
    const trackerBefore = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    fs.mkdirSync(ws.layout.ledgerFile); // the batch's ledger append fails: the commit fails
    const r = await ws.dispatch({ action: 'startSession', request_id: 'start-1', agent: 'claude', goal: 'fix the login timeout' });
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(fs.readFileSync(ws.layout.trackerFile, 'utf8'), trackerBefore, 'AgentTracker.md untouched');
    assert.equal(
      fs.existsSync(ws.layout.stateFile) && /fix the login timeout/.test(fs.readFileSync(ws.layout.stateFile, 'utf8')),
      false,
      'no session in state.json',
    );

    fs.rmdirSync(ws.layout.ledgerFile);
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
