// clearConflicts (docs/contract.md §3 `conflicts`): a human clears what a merge could not decide; agents are refused with
// not_assigned and nothing changes; every outcome is audited.
import { strict as assert } from 'node:assert';
import { handoffIn, T0 } from '../../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

const ID = 'HO-20260221-001';
const conflicts = [
  { field: 'claimed_by', ours: 'claude', theirs: 'copilot', resolved_to: 'claude', at: T0 },
  { field: 'summary', ours: 'Fix auth', theirs: 'Fix the auth timeout', resolved_to: 'Fix the auth timeout', at: T0 },
];
const withConflicts = () => handoffIn('in_progress', { conflicts });

describe('clearConflicts (docs/contract.md §3)', () => {
  after(removeTempDirs);

  it('a human clears them: conflicts gone, rev and updated_at move, status unchanged, one audit line', async () => {
    const ws = new TestWorkspace({ handoffs: [withConflicts()] });
    const res = await ws.dispatch({ action: 'clearConflicts', handoffId: ID, agent: 'human', expected_rev: 5 });
    assert.equal(res.ok, true, JSON.stringify(res));
    assert.equal((res.data as { cleared: number }).cleared, 2);
    const h = ws.stored(ID);
    assert.equal(h.conflicts, undefined);
    assert.equal(h.status, 'in_progress');
    assert.equal(h.claimed_by, 'claude');
    assert.equal(h.rev, 6);
    const audit = ws.auditEntries().filter((e) => e.action === 'clearConflicts');
    assert.deepEqual(
      audit.map((e) => [e.agent, e.handoff_id, e.reason]),
      [['human', ID, 'merge conflicts cleared (2: claimed_by, summary)']],
    );
  });

  it('a person named in humans of .agentsync.json may clear them too', async () => {
    const ws = new TestWorkspace({ config: { humans: ['alice'] }, handoffs: [withConflicts()] });
    const res = await ws.dispatch({ action: 'clearConflicts', handoffId: ID, agent: 'Alice' });
    assert.equal(res.ok, true, JSON.stringify(res));
    assert.equal(ws.stored(ID).conflicts, undefined);
  });

  it('an agent is refused with not_assigned, even the holder; the store is byte-identical and the refusal audited', async () => {
    const ws = new TestWorkspace({ handoffs: [withConflicts()] });
    const before = ws.storeBytes();
    const res = await ws.dispatch({ action: 'clearConflicts', handoffId: ID, agent: 'claude' });
    assert.equal(res.ok, false);
    assert.equal(res.reason, 'not_assigned');
    assert.match(res.message!, /only a human/);
    assert.deepEqual(ws.storeBytes(), before);
    assert.ok(ws.auditEntries().some((e) => e.action === 'clearConflicts' && (e as { refused?: boolean }).refused));
  });

  it('no conflicts → no_conflicts; a stale expected_rev → stale_revision; neither changes anything', async () => {
    const ws = new TestWorkspace({
      handoffs: [handoffIn('queued'), withConflicts()].map((h, i) => ({
        ...h,
        handoff_id: `HO-20260221-00${i + 1}`,
        uid: `${h.uid!.slice(0, 25)}${i}`,
      })),
    });
    const before = ws.storeBytes();
    const none = await ws.dispatch({ action: 'clearConflicts', handoffId: 'HO-20260221-001', agent: 'human' });
    assert.equal(none.reason, 'no_conflicts');
    const stale = await ws.dispatch({ action: 'clearConflicts', handoffId: 'HO-20260221-002', agent: 'human', expected_rev: 4 });
    assert.equal(stale.reason, 'stale_revision');
    assert.deepEqual(ws.storeBytes(), before);
  });

  it('agent is required (a request without one is invalid)', async () => {
    const ws = new TestWorkspace({ handoffs: [withConflicts()] });
    const res = await ws.dispatch({ action: 'clearConflicts', handoffId: ID });
    assert.equal(res.reason, 'invalid_request');
  });
});
