// Claim (docs/contract.md §4): first writer wins, already_claimed with claimedBy, idempotent re-claim by the holder,
// and optimistic concurrency with expected_rev → stale_revision.
import { strict as assert } from 'node:assert';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { completionReport, handoffIn } from '../../helpers/handoffFixtures';
import { removeTempDirs, rid, TestWorkspace } from '../../helpers/testWorkspace';

const ID = 'HO-20260221-001';
const shared = () => handoffIn('queued', { owner_mode: 'shared', to_agents: ['claude', 'copilot'] });

function handoffOf(res: RequestResponse): Handoff {
  return (res.data as { handoff: Handoff }).handoff;
}

describe('claimHandoff (docs/contract.md §4)', () => {
  after(removeTempDirs);

  it('the first claimer wins; the second gets already_claimed naming the holder, and nothing changes', async () => {
    const ws = new TestWorkspace({ handoffs: [shared()] });
    const first = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'claude' });
    assert.equal(first.ok, true);
    assert.equal(handoffOf(first).claimed_by, 'claude');
    const bytes = ws.storeBytes();
    const second = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'copilot' });
    assert.deepEqual(
      { ok: second.ok, reason: second.reason, claimedBy: second.claimedBy, handoff_id: second.handoff_id },
      { ok: false, reason: 'already_claimed', claimedBy: 'claude', handoff_id: ID },
    );
    assert.match(second.message!, /already claimed by claude/);
    assert.deepEqual(ws.storeBytes(), bytes);
  });

  it('claims that arrive together in one batch: exactly one winner', async () => {
    const ws = new TestWorkspace({ handoffs: [shared()] });
    const agents = ['claude', 'copilot', 'claude', 'copilot', 'human', 'copilot'];
    const results = await Promise.all(agents.map((agent) => ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent })));
    const holder = ws.stored(ID).claimed_by;
    assert.equal(holder, 'claude', 'the first request in arrival order wins');
    for (const [i, r] of results.entries()) {
      if (agents[i] === holder) assert.equal(r.ok, true, 'the holder re-claiming is fine');
      else assert.deepEqual([r.reason, r.claimedBy], ['already_claimed', holder]);
    }
    assert.equal(ws.stored(ID).state_history.filter((e) => e.status === 'in_progress').length, 1, 'claimed once');
  });

  it('claims from two stores on one folder (two windows): exactly one winner', async () => {
    const ws = new TestWorkspace({ handoffs: [shared()] });
    const other = ws.secondDispatcher();
    const [a, b] = await Promise.all([
      ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'claude' }),
      other.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'copilot' }),
    ]);
    const winners = [a, b].filter((r) => r.ok);
    assert.equal(winners.length, 1, JSON.stringify([a, b]));
    const loser = a.ok ? b : a;
    assert.equal(loser.reason, 'already_claimed');
    assert.equal(loser.claimedBy, handoffOf(winners[0]).claimed_by);
    assert.equal(ws.stored(ID).claimed_by, handoffOf(winners[0]).claimed_by);
  });

  it('re-claim by the holder is idempotent: ok, same rev, store untouched, one audit line', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'claude' });
    const bytes = ws.storeBytes();
    const requestId = rid('reclaim');
    const again = await ws.dispatch({ action: 'claimHandoff', request_id: requestId, handoffId: ID, agent: 'claude' });
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(handoffOf(again).rev, 6);
    assert.equal(handoffOf(again).claimed_by, 'claude');
    assert.deepEqual(ws.storeBytes(), bytes);
    assert.equal(ws.auditFor(requestId).length, 1, 'an accepted action writes one audit line (docs/contract.md §9)');
  });

  it('agent names are normalized before the comparison: "Claude" re-claims what "claude" holds', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
    const res = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'Claude' });
    assert.equal(res.ok, true, JSON.stringify(res));
  });

  it('a released handoff can be claimed by the other owner', async () => {
    const ws = new TestWorkspace({ handoffs: [shared()] });
    await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'claude' });
    const release = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'claude', to: 'queued', reason: 'no time' });
    assert.equal(release.ok, true);
    const res = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'copilot' });
    assert.equal(res.ok, true);
    assert.equal(ws.stored(ID).claimed_by, 'copilot');
    assert.deepEqual(
      ws.stored(ID).state_history.map((e) => [e.status, e.agent]),
      [
        ['queued', 'codex'],
        ['in_progress', 'claude'],
        ['queued', 'claude'],
        ['in_progress', 'copilot'],
      ],
    );
  });
});

describe('expected_rev → stale_revision (optimistic concurrency)', () => {
  after(removeTempDirs);

  const cases: { action: string; status: Handoff['status']; agent: string; extra: Record<string, unknown> }[] = [
    { action: 'claimHandoff', status: 'queued', agent: 'claude', extra: {} },
    { action: 'transitionHandoff', status: 'in_progress', agent: 'claude', extra: { to: 'blocked' } },
    { action: 'completeHandoff', status: 'in_progress', agent: 'claude', extra: { result: completionReport() } },
    { action: 'updateTodos', status: 'in_progress', agent: 'claude', extra: { todos: [] } },
  ];
  for (const c of cases) {
    it(`${c.action}: a stale expected_rev is refused with both revisions; the current one is applied`, async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn(c.status)] });
      const bytes = ws.storeBytes();
      const stale = await ws.dispatch({ action: c.action, handoffId: ID, agent: c.agent, expected_rev: 4, ...c.extra });
      assert.equal(stale.ok, false);
      assert.equal(stale.reason, 'stale_revision');
      assert.equal(stale.expected_rev, 4);
      assert.equal(stale.current_rev, 5);
      assert.match(stale.message!, /expected rev 4, it is now 5/);
      assert.deepEqual(ws.storeBytes(), bytes);
      const fresh = await ws.dispatch({ action: c.action, handoffId: ID, agent: c.agent, expected_rev: 5, ...c.extra });
      assert.equal(fresh.ok, true, JSON.stringify(fresh));
      assert.equal(ws.stored(ID).rev, 6);
    });
  }

  it('every write bumps rev by one, so a reader can chain expected_rev through a whole lifecycle', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    const steps: Record<string, unknown>[] = [
      { action: 'claimHandoff', agent: 'claude' },
      { action: 'completeHandoff', agent: 'claude', result: completionReport() },
      { action: 'transitionHandoff', agent: 'codex', to: 'approved' },
      { action: 'transitionHandoff', agent: 'codex', to: 'merged' },
    ];
    let rev = 5;
    for (const step of steps) {
      const res = await ws.dispatch({ ...step, handoffId: ID, expected_rev: rev });
      assert.equal(res.ok, true, JSON.stringify(res));
      rev++;
      assert.equal(handoffOf(res).rev, rev);
    }
    assert.equal(ws.stored(ID).status, 'merged');
  });
});
