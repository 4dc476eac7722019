// withdrawPass (docs/contract.md §6, "Withdraw"): the originator of passed work, or a human, takes the pass back. The
// pass ends `withdrawn`, nothing returns, its receiver is told once in the answer of its next request, and whatever the
// receiver sends about it afterwards is refused `withdrawn`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { removeTempDirs, rid, TestWorkspace } from '../../../helpers/testWorkspace';

const REPORT = { status: 'complete', decision: 'PROCEED', context_summary: 'reviewed', findings: {}, issues: [] };

function workspace(): TestWorkspace {
  return new TestWorkspace({ config: { agentCapabilities: { codex: ['x'], alice: ['x'], audit: ['y'] }, humans: ['dana'] } });
}

describe('withdrawPass (docs/contract.md §6, "Withdraw")', () => {
  after(removeTempDirs);

  it('the originator withdraws a claimed pass: withdrawn, no return, the store becomes version 3 with a notice', async () => {
    const ws = workspace();
    const { passed } = await ws.passedToAudit();
    assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: passed.handoff_id, agent: 'audit' })).ok, true);
    const before = ws.storedHandoffs().length;
    const r = await ws.dispatch({ action: 'withdrawPass', handoffId: passed.handoff_id, agent: 'alice', reason: 'no longer needed' });
    assert.equal(r.ok, true, JSON.stringify(r));
    const h = r.data!.handoff as Handoff;
    assert.equal(h.status, 'withdrawn');
    assert.equal(h.lease_expires_at, null);
    assert.deepEqual(r.data!.told, ['audit']);
    assert.match(String(r.data!.notice), /store version 3/);
    assert.equal(ws.storedHandoffs().length, before, 'no return handoff was created');
    assert.equal((JSON.parse(ws.storeBytes().toString('utf8')) as { version: number }).version, 3);
    const last = h.state_history[h.state_history.length - 1];
    assert.deepEqual([last.status, last.agent, last.reason], ['withdrawn', 'alice', 'no longer needed']);
    assert.match(fs.readFileSync(ws.layout.decisionsFile, 'utf8'), new RegExp(`${passed.handoff_id} \\| alice .*\\| withdrawn \\|`));
  });

  it("the receiver's later report, return and heartbeat are refused withdrawn, naming who withdrew it and why", async () => {
    const ws = workspace();
    const { passed } = await ws.passedToAudit();
    await ws.dispatch({ action: 'claimHandoff', handoffId: passed.handoff_id, agent: 'audit' });
    await ws.dispatch({ action: 'withdrawPass', handoffId: passed.handoff_id, agent: 'alice', reason: 'plan changed' });
    const bytes = ws.storeBytes();
    for (const req of [
      { action: 'completeHandoff', result: REPORT },
      { action: 'returnHandoff', result: REPORT },
      { action: 'heartbeat' },
      { action: 'transitionHandoff', to: 'queued' },
    ]) {
      const r = await ws.dispatch({ ...req, handoffId: passed.handoff_id, agent: 'audit', request_id: rid('late') });
      assert.equal(r.ok, false, `${req.action}: ${JSON.stringify(r)}`);
      assert.equal(r.reason, 'withdrawn', req.action);
      assert.equal(r.withdrawn_by, 'alice');
      assert.equal(r.withdrawn_reason, 'plan changed');
      assert.match(r.message!, /withdrawn by alice \(plan changed\)/);
    }
    assert.deepEqual(ws.storeBytes(), bytes, 'nothing changed');
  });

  it('only the passer or a human may withdraw; a handoff that was never passed, or a finished one, cannot be', async () => {
    const ws = workspace();
    const { work, passed } = await ws.passedToAudit();
    const byReceiver = await ws.dispatch({ action: 'withdrawPass', handoffId: passed.handoff_id, agent: 'audit', reason: 'mine' });
    assert.equal(byReceiver.reason, 'not_assigned');
    assert.deepEqual(byReceiver.allowed, ['alice']);
    const plain = await ws.dispatch({ action: 'withdrawPass', handoffId: work.handoff_id, agent: 'codex', reason: 'x' });
    assert.equal(plain.reason, 'illegal_transition', JSON.stringify(plain));
    const empty = await ws.dispatch({ action: 'withdrawPass', handoffId: passed.handoff_id, agent: 'alice', reason: '  ' });
    assert.equal(empty.reason, 'invalid_request');
    const byHuman = await ws.dispatch({ action: 'withdrawPass', handoffId: passed.handoff_id, agent: 'dana', reason: 'reprioritised' });
    assert.equal(byHuman.ok, true, JSON.stringify(byHuman));
    assert.deepEqual(byHuman.data!.told, ['audit'], 'unclaimed: its owners are told');
    const again = await ws.dispatch({ action: 'withdrawPass', handoffId: passed.handoff_id, agent: 'alice', reason: 'again' });
    assert.equal(again.reason, 'withdrawn');
  });

  it('transitionHandoff to withdrawn on passed work is the withdrawal, with the same rules', async () => {
    const ws = workspace();
    const { passed } = await ws.passedToAudit();
    const r = await ws.dispatch({
      action: 'transitionHandoff',
      handoffId: passed.handoff_id,
      agent: 'alice',
      to: 'withdrawn',
      reason: 'dropped',
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal((r.data!.handoff as Handoff).status, 'withdrawn');
  });

  it("the receiver is told in the answer of its next request, once; the originator's answers say nothing", async () => {
    const ws = workspace();
    const { passed } = await ws.passedToAudit();
    await ws.dispatch({ action: 'claimHandoff', handoffId: passed.handoff_id, agent: 'audit' });
    await ws.dispatch({ action: 'withdrawPass', handoffId: passed.handoff_id, agent: 'alice', reason: 'plan changed' });
    const other = await ws.dispatch({ action: 'listHandoffs', agent: 'alice' });
    assert.equal(other.data!.withdrawn, undefined);
    const first = await ws.dispatch({ action: 'listHandoffs', agent: 'audit' });
    assert.deepEqual(
      (first.data!.withdrawn as { handoff_id: string; withdrawn_by: string; reason: string }[]).map((n) => [
        n.handoff_id,
        n.withdrawn_by,
        n.reason,
      ]),
      [[passed.handoff_id, 'alice', 'plan changed']],
    );
    const second = await ws.dispatch({ action: 'listHandoffs', agent: 'audit' });
    assert.equal(second.data!.withdrawn, undefined, 'told once');
  });
});
