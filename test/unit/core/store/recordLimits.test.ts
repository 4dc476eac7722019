// Every string and list has a maximum size (docs/contract.md §3): no ordinary action may write a record the store's
// own schema refuses, or every later read on a fresh clone (no validated-store stamp) answers store_invalid. Each
// case either fits the limit (a composed reason is bounded) or is refused alone with record_invalid / a named limit,
// leaving the store as it was.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { LIMITS, type Handoff } from '../../../../src/core/domain/handoffSchema';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import { handoffIn, makeHandoff, T0 } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

/** What a `git clone` sees: the committed bytes, validated in full (no stamp). */
function freshCloneReads(ws: TestWorkspace): StoreSnapshot {
  return StoreSnapshot.parse(fs.readFileSync(ws.layout.handoffsFile, 'utf8'), false);
}

function longest(h: Handoff): number {
  return Math.max(...h.state_history.map((e) => (e.reason ?? '').length));
}

describe('records within the schema limits (docs/contract.md §3)', () => {
  after(removeTempDirs);

  it('create with a 2,000-character skip reason: the composed history reason is bounded, a fresh clone reads it', async () => {
    const ws = new TestWorkspace();
    const reason = 'r'.repeat(LIMITS.reason);
    const r = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', owner_mode: 'single', summary: 'skip', no_handoff_reason: reason },
    });
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 400));
    const h = freshCloneReads(ws).handoffs[0];
    assert.equal(h.no_handoff_reason, reason, 'the full reason is kept in its own field');
    assert.ok(longest(h) <= LIMITS.reason);
    assert.match(h.state_history[0].reason!, /^skipped: r+…$/);
  });

  it('an auto-routed handoff whose unroutable explanation is long: bounded, a fresh clone reads it', async () => {
    const ws = new TestWorkspace({ config: { agentCapabilities: { codex: ['code_patch'], claude: ['review'] } } });
    const caps = Array.from(
      { length: LIMITS.capabilities },
      (_, i) => `missing_capability_${String(i).padStart(2, '0')}_${'x'.repeat(70)}`,
    );
    const r = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', owner_mode: 'auto', summary: 'route me', required_capabilities: caps },
    });
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 400));
    const h = freshCloneReads(ws).handoffs[0];
    assert.equal(h.status, 'blocked');
    assert.ok(longest(h) <= LIMITS.reason, `history reason of ${longest(h)} characters`);
    assert.match(h.state_history[0].reason!, /^unroutable: no configured agent has missing_capability_00/);
  });

  it('a [pass_over: x] message with a 5 KB summary is refused (record_invalid naming summary); nothing is written', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
    const before = ws.storeBytes();
    const r = await ws.dispatch({
      action: 'passOver',
      agent: 'claude',
      handoffId: 'HO-20260221-001',
      message: `[pass_over: copilot] ${'s'.repeat(5_000)}\nReason: review`,
    });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'record_invalid', JSON.stringify(r).slice(0, 400));
    assert.equal(r.field, 'summary');
    assert.match(r.message!, /summary/);
    assert.match(r.message!, /2000/);
    assert.deepEqual(ws.storeBytes(), before);
    freshCloneReads(ws);
  });

  it('revise past maxAttempts with a 2,000-character reason: the escalation reason is bounded, a fresh clone reads it', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('ready_for_review', { prior_attempts: 3 })] });
    const r = await ws.dispatch({
      action: 'transitionHandoff',
      handoffId: 'HO-20260221-001',
      agent: 'codex',
      to: 'in_progress',
      reason: 'w'.repeat(LIMITS.reason),
    });
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 400));
    const h = freshCloneReads(ws).handoffs[0];
    assert.equal(h.status, 'escalated');
    assert.ok(longest(h) <= LIMITS.reason);
    assert.match(h.state_history.at(-1)!.reason!, /^returned for revision 4 times \(over maxAttempts 3\): w+…$/);
  });

  it('a pass at max_chain_depth 20 whose chain would hold 21 agents is refused (CHAIN_DEPTH_EXCEEDED); nothing is written', async () => {
    const chain = Array.from({ length: LIMITS.chain }, (_, i) => `a${String(i).padStart(2, '0')}`);
    const parent = makeHandoff({
      status: 'in_progress',
      from_agent: chain[18],
      to_agents: [chain[19]],
      chain,
      claimed_by: chain[19],
      claimed_at: T0,
    });
    const ws = new TestWorkspace({ config: { passOver: { defaults: { max_chain_depth: 20 } } }, handoffs: [parent] });
    const before = ws.storeBytes();
    const r = await ws.dispatch({
      action: 'passOver',
      agent: chain[19],
      handoffId: parent.handoff_id,
      to: 'zz',
      summary: 'one more hop',
      reason: 'deeper',
    });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'CHAIN_DEPTH_EXCEEDED', JSON.stringify(r).slice(0, 400));
    assert.deepEqual(ws.storeBytes(), before);
  });

  it("a record holding 10,000 history entries: the next change is refused (record_invalid, state_history), the batch's other request applies", async () => {
    const history = Array.from({ length: LIMITS.history }, (_, i) => ({
      status: 'queued' as const,
      agent: 'codex',
      timestamp: T0,
      reason: `r${i}`,
    }));
    const full = makeHandoff({ state_history: history });
    const other = makeHandoff({ handoff_id: 'HO-20260221-002', uid: undefined });
    delete (other as Partial<Handoff>).uid;
    const ws = new TestWorkspace({ handoffs: [full, other] });
    const [bad, good] = await Promise.all([
      ws.dispatch({ action: 'claimHandoff', handoffId: full.handoff_id, agent: 'claude' }),
      ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20260221-002', agent: 'claude' }),
    ]);
    assert.equal(bad.ok, false);
    assert.equal(bad.reason, 'record_invalid', JSON.stringify(bad).slice(0, 400));
    assert.equal(bad.field, 'state_history');
    assert.match(bad.message!, /HO-20260221-001\.state_history/);
    assert.equal(good.ok, true, JSON.stringify(good).slice(0, 400));
    const stored = freshCloneReads(ws);
    assert.equal(stored.find(full.handoff_id)!.state_history.length, LIMITS.history);
    assert.equal(stored.find(full.handoff_id)!.status, 'queued');
    assert.equal(stored.find('HO-20260221-002')!.status, 'in_progress');
    const audit = ws.auditEntries().filter((e) => e.handoff_id === full.handoff_id);
    assert.deepEqual(
      audit.map((e) => [e.refused, e.reason]),
      [[true, 'record_invalid']],
    );
  });
});
