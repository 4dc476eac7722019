// Completion and review (docs/contract.md §4, §6): STOP/CLARIFY block for a human, the context_summary budget,
// return for revision and maxAttempts → escalated, decisions.md and state.json.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { completionReport, handoffIn, makeHandoff } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const ID = 'HO-20260221-001';

describe('completeHandoff: the receiver report (docs/contract.md §6)', () => {
  after(removeTempDirs);

  /** A workspace whose handoff ID is in progress, claimed by claude. */
  const inProgress = () => new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
  /** claude completes ID with `result` (no report at all when it is undefined). */
  const complete = (ws: TestWorkspace, result?: object) =>
    ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'claude', ...(result ? { result } : {}) });

  for (const decision of ['STOP', 'CLARIFY'] as const) {
    it(`decision ${decision} puts the handoff in front of a human: blocked, with the reason`, async () => {
      const ws = inProgress();
      const res = await complete(ws, completionReport(decision, { issues: ['token refresh spec is ambiguous', 'no test fixture'] }));
      assert.equal(res.ok, true, JSON.stringify(res));
      const h = ws.stored(ID);
      assert.equal(h.status, 'blocked');
      assert.equal(h.result?.decision, decision);
      const last = h.state_history.at(-1)!;
      assert.equal(last.status, 'blocked');
      assert.equal(last.reason, `${decision}: token refresh spec is ambiguous; no test fixture`);
      assert.equal(h.rev, 6);
    });
  }

  it('PROCEED advances to ready_for_review; no report at all does too', async () => {
    for (const result of [completionReport('PROCEED'), undefined]) {
      const ws = inProgress();
      const res = await complete(ws, result);
      assert.equal(res.ok, true, JSON.stringify(res));
      assert.equal(ws.stored(ID).status, 'ready_for_review');
    }
  });

  it('a context_summary over 500 estimated tokens is refused with the count, and nothing changes', async () => {
    const ws = inProgress();
    const bytes = ws.storeBytes();
    const res = await complete(ws, completionReport('PROCEED', { context_summary: 'x'.repeat(2_001) }));
    assert.equal(res.ok, false);
    assert.deepEqual([res.reason, res.code, res.field], ['CONTEXT_OVERFLOW', 'E012', 'result.context_summary']);
    assert.equal(res.tokens, 501);
    assert.equal(res.limit, 500);
    assert.match(res.message!, /about 501 tokens; the limit is 500/);
    assert.deepEqual(ws.storeBytes(), bytes);
  });

  it('a context_summary of exactly 500 estimated tokens is accepted', async () => {
    const ws = inProgress();
    const res = await complete(ws, completionReport('PROCEED', { context_summary: 'y'.repeat(2_000) }));
    assert.equal(res.ok, true, JSON.stringify(res));
  });

  it('the over-long context_summary check applies to STOP reports as well', async () => {
    const ws = inProgress();
    const bytes = ws.storeBytes();
    const res = await complete(ws, completionReport('STOP', { context_summary: 'z'.repeat(4_000) }));
    assert.equal(res.reason, 'CONTEXT_OVERFLOW');
    assert.equal(res.tokens, 1_000);
    assert.deepEqual(ws.storeBytes(), bytes);
  });
});

describe('return for revision and maxAttempts (docs/contract.md §4)', () => {
  after(removeTempDirs);

  async function reviewLoop(ws: TestWorkspace, rounds: number): Promise<Handoff[]> {
    const seen: Handoff[] = [];
    for (let i = 0; i < rounds; i++) {
      const done = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'claude', result: completionReport() });
      assert.equal(done.ok, true, `round ${i + 1} complete: ${JSON.stringify(done)}`);
      const back = await ws.dispatch({
        action: 'transitionHandoff',
        handoffId: ID,
        agent: 'codex',
        to: 'in_progress',
        reason: `round ${i + 1} needs work`,
      });
      assert.equal(back.ok, true, `round ${i + 1} return: ${JSON.stringify(back)}`);
      seen.push(ws.stored(ID));
    }
    return seen;
  }

  it('each return increments prior_attempts; the 4th return (over the default 3) escalates instead', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
    const rounds = await reviewLoop(ws, 4);
    assert.deepEqual(
      rounds.map((h) => [h.status, h.prior_attempts]),
      [
        ['in_progress', 1],
        ['in_progress', 2],
        ['in_progress', 3],
        ['escalated', 4],
      ],
    );
    const last = rounds[3].state_history.at(-1)!;
    assert.equal(last.status, 'escalated');
    assert.match(last.reason!, /returned for revision 4 times \(over maxAttempts 3\): round 4 needs work/);
    // Terminal now: nothing more happens.
    const more = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'claude' });
    assert.equal(more.reason, 'illegal_transition');
  });

  it('maxAttempts is configurable', async () => {
    const ws = new TestWorkspace({ config: { maxAttempts: 1 }, handoffs: [handoffIn('in_progress')] });
    const rounds = await reviewLoop(ws, 2);
    assert.deepEqual(
      rounds.map((h) => [h.status, h.prior_attempts]),
      [
        ['in_progress', 1],
        ['escalated', 2],
      ],
    );
  });

  it('a record that arrives with prior_attempts already at the limit escalates on its next return', async () => {
    const ws = new TestWorkspace({ config: { maxAttempts: 5 }, handoffs: [handoffIn('ready_for_review', { prior_attempts: 5 })] });
    const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'codex', to: 'in_progress' });
    assert.equal(res.ok, true);
    assert.deepEqual([ws.stored(ID).status, ws.stored(ID).prior_attempts], ['escalated', 6]);
  });
});

describe('decisions.md and state.json (docs/contract.md §2)', () => {
  after(removeTempDirs);

  it('a line is appended when a handoff is merged, with the report summary and decision', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
    await ws.dispatch({
      action: 'completeHandoff',
      handoffId: ID,
      agent: 'claude',
      result: completionReport('PROCEED', { context_summary: 'Fixed | tested\nready' }),
    });
    assert.equal(fs.existsSync(ws.layout.decisionsFile), false, 'no line before merged/escalated');
    await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'codex', to: 'approved' });
    const ts = ws.clock.advance(60_000);
    await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'codex', to: 'merged' });
    const text = ws.readText(ws.layout.decisionsFile)!;
    const lines = text.split('\n').filter(Boolean);
    // task_id and notes follow the six documented columns (a `|` or line break in them cannot add a cell).
    assert.equal(
      lines[lines.length - 1],
      `${ts} | ${ID} | codex | Fixed \\| tested ready | PROCEED | merged | AS-210 | Check regression risk.`,
    );
    assert.match(text, /^# Decisions\n\ntimestamp \| handoff_id \| agent \| context_summary \| decision \| outcome \| task_id \| notes\n/);
  });

  it('task_id and notes with a pipe or a line break stay one cell each; no task shows "-"', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued', { task_id: null, notes: 'a | b\nc' })] });
    await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'human', to: 'escalated' });
    const row = ws
      .readText(ws.layout.decisionsFile)!
      .split('\n')
      .find((l) => l.includes('| HO-'))!;
    assert.ok(row.endsWith(' | escalated | - | a \\| b c'), row);
  });

  it('a line is appended when a handoff is escalated, and earlier lines are kept', async () => {
    const a = handoffIn('queued', { summary: 'first one', notes: '' });
    const b = handoffIn('blocked', { handoff_id: 'HO-20260221-002', uid: undefined, summary: 'second one' });
    const ws = new TestWorkspace({ handoffs: [a, b] });
    await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'human', to: 'escalated' });
    const first = ws.readText(ws.layout.decisionsFile)!;
    await ws.dispatch({ action: 'transitionHandoff', handoffId: 'HO-20260221-002', agent: 'codex', to: 'escalated' });
    const both = ws.readText(ws.layout.decisionsFile)!;
    assert.ok(both.startsWith(first), 'append only');
    const rows = both.split('\n').filter((l) => l.includes('| HO-'));
    assert.deepEqual(
      rows.map((r) => r.split(' | ').slice(1)),
      [
        [ID, 'human', 'first one', '-', 'escalated', 'AS-210', '-'],
        ['HO-20260221-002', 'codex', 'second one', '-', 'escalated', 'AS-210', 'Check regression risk.'],
      ],
    );
  });

  it('no line for moves that do not end the handoff', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'claude' });
    await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'claude', to: 'blocked' });
    assert.equal(fs.existsSync(ws.layout.decisionsFile), false);
  });

  it('state.json carries the open ids and per-status counts, and keeps the session fields', async () => {
    const handoffs = [
      handoffIn('queued'),
      makeHandoff({ handoff_id: 'HO-20260221-002', status: 'in_progress', claimed_by: 'claude' }),
      handoffIn('merged', { handoff_id: 'HO-20260221-003', uid: undefined }),
      handoffIn('escalated', { handoff_id: 'HO-20260221-004', uid: undefined }),
    ];
    // The finished ones are older than archive.after_days at the test clock: kept in the store here (archive.test.ts archives).
    const ws = new TestWorkspace({ handoffs, config: { archive: { after_days: null } } });
    fs.writeFileSync(ws.layout.stateFile, JSON.stringify({ sessionActive: true, activeSession: { id: 's1' }, custom: 7 }));
    const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'codex', to: 'blocked' });
    assert.equal(res.ok, true);
    const state = ws.stateJson();
    assert.equal(state.openHandoffCount, 2);
    assert.deepEqual(state.activeHandoffIds, [ID, 'HO-20260221-002']);
    assert.deepEqual(state.handoffCounts, {
      queued: 0,
      in_progress: 1,
      blocked: 1,
      ready_for_review: 0,
      approved: 0,
      merged: 1,
      escalated: 1,
      withdrawn: 0,
    });
    assert.equal(state.sessionActive, true, '0.3 session fields are kept');
    assert.deepEqual(state.activeSession, { id: 's1' });
    assert.equal(state.custom, 7);
    for (const key of ['lastSession', 'health', 'hotFiles']) assert.ok(key in state, `${key} is present`);
  });
});
