// Timeouts of passed work (docs/contract.md §6) with the store's controllable clock, all through the dispatcher:
// a receiver whose lease lapses → E010 SUBAGENT_TIMEOUT, work nobody claims within timeout_ms → E022 RETURN_TIMEOUT.
// The pass is escalated with the code in its history and a queued handoff carries it back to its origin. No special
// call is needed: the next write, a read, or expireLeases sweeps it.
import { strict as assert } from 'node:assert';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { completionReport } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const TIMEOUT = 5_000;

async function ok(ws: TestWorkspace, request: Record<string, unknown>): Promise<RequestResponse> {
  const r = await ws.dispatch(request);
  assert.equal(r.ok, true, `${JSON.stringify(request)} → ${JSON.stringify(r)}`);
  return r;
}

/** alice passes work to `to` with a 5 s timeout; `to` claims it unless told not to. */
async function pass(ws: TestWorkspace, opts: { from?: string; to?: string; claim?: boolean; parent?: string } = {}): Promise<Handoff> {
  const from = opts.from ?? 'alice';
  const to = opts.to ?? 'audit';
  const r = await ok(ws, {
    action: 'passOver',
    agent: from,
    to,
    reason: 'code_review',
    summary: `${from} to ${to}: review the auth module`,
    override: { timeout_ms: TIMEOUT },
    ...(opts.parent ? { handoffId: opts.parent } : {}),
  });
  const h = r.data!.handoff as Handoff;
  if (opts.claim === false) return h;
  return (await ok(ws, { action: 'claimHandoff', handoffId: h.handoff_id, agent: to })).data!.handoff as Handoff;
}

/** The handoff that carried `h` back to its origin. */
function returnOf(ws: TestWorkspace, h: Handoff): Handoff {
  const back = ws.storedHandoffs().filter((x) => x.parent_uid === h.uid && x.reason === 'return');
  assert.equal(back.length, 1, `one return of ${h.handoff_id}: ${JSON.stringify(back)}`);
  return back[0];
}

describe('pass timeouts: E010 SUBAGENT_TIMEOUT and E022 RETURN_TIMEOUT', () => {
  after(removeTempDirs);

  it('a lapsed lease hands the work back to its origin with E010 in both histories, on the next write', async () => {
    const ws = new TestWorkspace();
    const h = await pass(ws);
    ws.clock.advance(TIMEOUT - 1);
    await ok(ws, { action: 'createHandoff', handoff: { from_agent: 'bob', owner_mode: 'single', to_agents: ['carol'], summary: 'other' } });
    assert.equal(ws.stored(h.handoff_id).status, 'in_progress', 'not before its lease ends');
    ws.clock.advance(1);
    await ok(ws, {
      action: 'createHandoff',
      handoff: { from_agent: 'bob', owner_mode: 'single', to_agents: ['carol'], summary: 'other 2' },
    });
    const closed = ws.stored(h.handoff_id);
    assert.equal(closed.status, 'escalated');
    const last = closed.state_history.at(-1)!;
    assert.equal(last.agent, 'agentsync');
    assert.match(
      String(last.reason),
      /^E010 SUBAGENT_TIMEOUT: the lease of audit ran out at .* \(timeout_ms 5000\) before it finished; handed back to alice as HO-/,
    );
    const back = returnOf(ws, closed);
    assert.deepEqual([back.status, back.to_agents, back.from_agent, back.return_to], ['queued', ['alice'], 'agentsync', null]);
    assert.match(back.summary, /^Timed out \(E010 SUBAGENT_TIMEOUT\): audit did not finish HO-\S+: alice to audit: review the auth module/);
    assert.match(
      back.notes,
      /neither completed it nor renewed its lease \(heartbeat\) within timeout_ms 5000.*handed the work back to alice/s,
    );
    assert.match(String(back.state_history[0].reason), /^E010 SUBAGENT_TIMEOUT: handed back from /);
    assert.ok(last.reason!.includes(back.handoff_id), 'the pass names the handoff that carried it back');
    const audit = ws.auditEntries().filter((e) => e.action === 'passTimeout');
    assert.deepEqual(
      audit.map((e) => [e.handoff_id, e.to_status]),
      [
        [back.handoff_id, 'queued'],
        [h.handoff_id, 'escalated'],
      ],
    );
  });

  it('work nobody claims within timeout_ms returns with E022, and a read (listHandoffs) is enough to see it', async () => {
    const ws = new TestWorkspace();
    const h = await pass(ws, { claim: false });
    ws.clock.advance(TIMEOUT);
    const list = await ok(ws, { action: 'listHandoffs' });
    const listed = (list.data!.handoffs as Handoff[]).find((x) => x.handoff_id === h.handoff_id)!;
    assert.equal(listed.status, 'escalated', 'the read already shows it handed back');
    assert.match(
      String(listed.state_history.at(-1)!.reason),
      /^E022 RETURN_TIMEOUT: nobody claimed it within timeout_ms 5000 \(queued since /,
    );
    const back = returnOf(ws, listed);
    assert.match(back.summary, /^Timed out \(E022 RETURN_TIMEOUT\): nobody claimed HO-/);
    assert.equal(list.data!.count, 2);
  });

  it('a heartbeat keeps the lease alive; a release starts the unclaimed wait again', async () => {
    const ws = new TestWorkspace();
    const h = await pass(ws);
    ws.clock.advance(TIMEOUT - 1_000);
    await ok(ws, { action: 'heartbeat', handoffId: h.handoff_id, agent: 'audit' });
    ws.clock.advance(TIMEOUT - 1_000);
    await ok(ws, { action: 'transitionHandoff', handoffId: h.handoff_id, agent: 'audit', to: 'queued', reason: 'later' });
    ws.clock.advance(TIMEOUT - 1);
    await ok(ws, { action: 'listHandoffs' });
    assert.equal(ws.stored(h.handoff_id).status, 'queued');
    ws.clock.advance(1);
    await ok(ws, { action: 'listHandoffs' });
    assert.match(String(ws.stored(h.handoff_id).state_history.at(-1)!.reason), /^E022 RETURN_TIMEOUT/);
  });

  it('expireLeases answers with what timed out; ordinary handoffs are still released to the queue, passes are not', async () => {
    const ws = new TestWorkspace({ config: { leaseMinutes: 1 } });
    const h = await pass(ws);
    const c = await ok(ws, {
      action: 'createHandoff',
      handoff: { from_agent: 'bob', owner_mode: 'single', to_agents: ['carol'], summary: 'plain' },
    });
    const plain = (c.data!.handoff as Handoff).handoff_id;
    await ok(ws, { action: 'claimHandoff', handoffId: plain, agent: 'carol' });
    ws.clock.advance(60_000);
    const r = await ok(ws, { action: 'expireLeases' });
    const ids = (k: string) => (r.data![k] as Handoff[]).map((x) => x.handoff_id);
    assert.deepEqual(ids('released'), [plain]);
    assert.deepEqual(ids('timed_out'), [h.handoff_id]);
    assert.deepEqual(ids('returned'), [returnOf(ws, ws.stored(h.handoff_id)).handoff_id]);
  });

  it('the agent that timed out can no longer complete it; its origin may pass it to the same agent again (a retry)', async () => {
    const ws = new TestWorkspace();
    const h = await pass(ws);
    ws.clock.advance(TIMEOUT);
    await ok(ws, { action: 'listHandoffs' });
    const late = await ws.dispatch({ action: 'completeHandoff', handoffId: h.handoff_id, agent: 'audit', result: completionReport() });
    assert.deepEqual([late.ok, late.reason], [false, 'illegal_transition']);
    const back = returnOf(ws, ws.stored(h.handoff_id));
    const retry = await ok(ws, {
      action: 'passOver',
      agent: 'alice',
      to: 'audit',
      handoffId: back.handoff_id,
      reason: 'retry',
      summary: 'again',
    });
    assert.deepEqual((retry.data!.handoff as Handoff).chain, ['alice', 'audit']);
  });

  it('a holder waiting on its own pass does not time out; when that pass times out, the holder gets a fresh lease', async () => {
    const ws = new TestWorkspace();
    const first = await pass(ws); // alice → audit
    ws.clock.advance(1_000);
    const second = await pass(ws, { from: 'audit', to: 'tester', parent: first.handoff_id }); // audit → tester
    ws.clock.advance(TIMEOUT - 1_000); // audit's lease has run out; tester's has 1 s left
    await ok(ws, { action: 'listHandoffs' });
    assert.equal(ws.stored(first.handoff_id).status, 'in_progress', 'audit is waiting for tester, not gone');
    ws.clock.advance(1_000); // tester's lease runs out
    const now = ws.clock.iso();
    await ok(ws, { action: 'listHandoffs' });
    assert.equal(ws.stored(second.handoff_id).status, 'escalated');
    const back = returnOf(ws, ws.stored(second.handoff_id));
    assert.deepEqual(back.to_agents, ['audit']);
    const held = ws.stored(first.handoff_id);
    assert.equal(held.status, 'in_progress', 'audit still holds its own work');
    assert.equal(Date.parse(held.lease_expires_at!) - Date.parse(now), TIMEOUT, 'and has a full timeout to act on what came back');
    ws.clock.advance(TIMEOUT);
    await ok(ws, { action: 'listHandoffs' });
    assert.match(
      String(ws.stored(first.handoff_id).state_history.at(-1)!.reason),
      /^E010 SUBAGENT_TIMEOUT/,
      'then its own timeout applies',
    );
  });

  it('a request refused in the same batch does not undo the sweep', async () => {
    const ws = new TestWorkspace();
    const h = await pass(ws);
    ws.clock.advance(TIMEOUT);
    const refused = await ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20990101-001', agent: 'audit' });
    assert.equal(refused.reason, 'not_found');
    assert.equal(ws.stored(h.handoff_id).status, 'escalated');
  });

  it('a record without a stored policy under a broken passOver section is left alone (no guessed timeout)', async () => {
    const ws = new TestWorkspace();
    const h = await pass(ws);
    const { policy: _policy, ...bare } = ws.stored(h.handoff_id);
    ws.writeHandoffs([bare]);
    ws.writeConfig({ passOver: { defaults: { timeout_msx: 1 } } });
    ws.clock.advance(60 * 60_000);
    await ok(ws, { action: 'listHandoffs' });
    assert.equal(ws.stored(h.handoff_id).status, 'in_progress');
  });
});
