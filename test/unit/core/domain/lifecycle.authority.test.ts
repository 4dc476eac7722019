// docs/contract.md §4 "Who may act": owners, originator (from_agent or return_to), anyone involved, humans; anyone else
// gets not_assigned and changes nothing. Every legal move × every kind of actor.
import { strict as assert } from 'node:assert';
import { completionReport, handoffIn } from '../../helpers/handoffFixtures';
import { authorityOf, legalPairs, type Authority } from '../../helpers/lifecycleTable';
import { removeTempDirs, rid, TestWorkspace } from '../../helpers/testWorkspace';

const ID = 'HO-20260221-001';

/** The record: codex → claude, passed through gemini (chain), with alice configured as a human. */
const ACTORS: { agent: string; role: string; may: Authority[] }[] = [
  { agent: 'claude', role: 'owner', may: ['owner', 'involved'] },
  { agent: 'codex', role: 'originator (from_agent)', may: ['originator', 'involved'] },
  { agent: 'gemini', role: 'involved (in the chain)', may: ['involved'] },
  { agent: 'human', role: 'the human agent id', may: ['owner', 'originator', 'involved'] },
  { agent: 'alice', role: 'a configured human', may: ['owner', 'originator', 'involved'] },
  { agent: 'mallory', role: 'a stranger', may: [] },
];

describe('lifecycle: who may act (docs/contract.md §4)', () => {
  after(removeTempDirs);

  for (const [from, to] of legalPairs()) {
    const authority = authorityOf(from, to);
    describe(`${from} → ${to} needs the ${authority}`, () => {
      for (const actor of ACTORS) {
        const allowed = actor.may.includes(authority);
        it(`${actor.agent} (${actor.role}) is ${allowed ? 'allowed' : 'refused with not_assigned'}`, async () => {
          const ws = new TestWorkspace({ config: { humans: ['alice'] }, handoffs: [handoffIn(from, { chain: ['codex', 'gemini'] })] });
          const bytes = ws.storeBytes();
          const requestId = rid('auth');
          const res = await ws.dispatch({ action: 'transitionHandoff', request_id: requestId, handoffId: ID, agent: actor.agent, to });
          if (allowed) {
            assert.equal(res.ok, true, JSON.stringify(res));
            assert.equal(ws.stored(ID).status, to);
            const last = ws.stored(ID).state_history.at(-1)!;
            assert.equal(last.agent, actor.agent, 'the history names who acted');
          } else {
            assert.equal(res.ok, false);
            assert.equal(res.reason, 'not_assigned', JSON.stringify(res));
            assert.equal(res.agent, actor.agent);
            assert.equal(res.handoff_id, ID);
            assert.match(res.message!, new RegExp(`${actor.agent} may not`));
            assert.deepEqual(ws.storeBytes(), bytes);
            const audit = ws.auditFor(requestId);
            assert.equal(audit.length, 1);
            assert.equal(audit[0].refused, true);
            assert.equal(audit[0].reason, 'not_assigned');
          }
        });
      }
    });
  }

  describe('the originator of a passed-over handoff is return_to', () => {
    for (const [from, to] of [
      ['ready_for_review', 'approved'],
      ['ready_for_review', 'in_progress'],
      ['approved', 'merged'],
    ] as const) {
      it(`${from} → ${to}: return_to (gemini) may, from_agent (codex) may not`, async () => {
        const ws = new TestWorkspace({ handoffs: [handoffIn(from, { return_to: 'gemini' })] });
        const bytes = ws.storeBytes();
        const refused = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'codex', to });
        assert.equal(refused.reason, 'not_assigned');
        assert.deepEqual(refused.allowed, ['gemini']);
        assert.deepEqual(ws.storeBytes(), bytes);
        const ok = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'gemini', to });
        assert.equal(ok.ok, true, JSON.stringify(ok));
      });
    }
  });

  describe('claimHandoff and completeHandoff check the same authority', () => {
    it('claim by a non-owner: not_assigned naming the owners; by a human: allowed', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
      const bytes = ws.storeBytes();
      const res = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'codex' });
      assert.equal(res.reason, 'not_assigned');
      assert.deepEqual(res.allowed, ['claude']);
      assert.deepEqual(ws.storeBytes(), bytes);
      const human = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'human' });
      assert.equal(human.ok, true);
      assert.equal(ws.stored(ID).claimed_by, 'human');
    });

    it('complete by the originator (not an owner): not_assigned; by a configured human: allowed', async () => {
      const ws = new TestWorkspace({ config: { humans: ['alice'] }, handoffs: [handoffIn('in_progress')] });
      const bytes = ws.storeBytes();
      const res = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'codex', result: completionReport() });
      assert.equal(res.reason, 'not_assigned');
      assert.deepEqual(ws.storeBytes(), bytes);
      const alice = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'alice', result: completionReport() });
      assert.equal(alice.ok, true, JSON.stringify(alice));
      assert.equal(ws.stored(ID).status, 'ready_for_review');
    });

    it('an id in humans only counts when it is configured', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
      const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'alice', to: 'escalated' });
      assert.equal(res.reason, 'not_assigned');
    });
  });
});
