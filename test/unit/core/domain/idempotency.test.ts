// Idempotency by request_id (docs/contract.md §8): the same id again → the stored response again, nothing applied twice;
// the same id with different parameters → request_id_reused. Sequential, from another store, and within one batch.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { completionReport, handoffIn } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const ID = 'HO-20260221-001';
const create = (summary = 'idempotent') => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary },
});

describe('idempotency by request_id (docs/contract.md §8)', () => {
  after(removeTempDirs);

  it('createHandoff twice with one id: the identical stored response, one handoff, one audit line', async () => {
    const ws = new TestWorkspace();
    const first = await ws.dispatch({ ...create(), request_id: 'same-1' });
    assert.equal(first.ok, true);
    ws.clock.advance(5_000);
    const bytes = ws.storeBytes();
    const second = await ws.dispatch({ ...create(), request_id: 'same-1' });
    assert.deepEqual(second, first);
    assert.equal(ws.storedHandoffs().length, 1);
    assert.deepEqual(ws.storeBytes(), bytes);
    assert.equal(ws.auditFor('same-1').length, 1);
  });

  it('a state change repeated is not applied twice: return for revision counts one attempt', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('ready_for_review')] });
    const req = {
      action: 'transitionHandoff',
      request_id: 'rev-1',
      handoffId: ID,
      agent: 'codex',
      to: 'in_progress',
      reason: 'fix the test',
    };
    const first = await ws.dispatch(req);
    const second = await ws.dispatch(req);
    assert.deepEqual(second, first);
    const h = ws.stored(ID);
    assert.equal(h.prior_attempts, 1);
    assert.equal(h.rev, 6);
    assert.equal(h.state_history.length, 4);
  });

  it('the answer survives a restart: another store on the same folder answers from the ledger', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    const req = { action: 'claimHandoff', request_id: 'claim-restart', handoffId: ID, agent: 'claude' };
    const first = await ws.dispatch(req);
    assert.equal(first.ok, true);
    // Release in between, so a second application would visibly claim again.
    await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'claude', to: 'queued' });
    const bytes = ws.storeBytes();
    const again = await ws.secondDispatcher().dispatch(req);
    assert.deepEqual(again, first);
    assert.equal(ws.stored(ID).status, 'queued');
    assert.deepEqual(ws.storeBytes(), bytes);
  });

  it('a refusal is stored too: the same id gets the same refusal even after the obstacle is gone', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
    const req = {
      action: 'completeHandoff',
      request_id: 'late-1',
      handoffId: ID,
      agent: 'claude',
      result: completionReport(),
      expected_rev: 4,
    };
    const first = await ws.dispatch(req);
    assert.equal(first.reason, 'stale_revision');
    const second = await ws.dispatch(req);
    assert.deepEqual(second, first);
    assert.equal(ws.stored(ID).status, 'in_progress');
  });

  it('the same id with different parameters → request_id_reused, nothing changes', async () => {
    const ws = new TestWorkspace();
    await ws.dispatch({ ...create('first'), request_id: 'reuse-1' });
    const bytes = ws.storeBytes();
    const res = await ws.dispatch({ ...create('second'), request_id: 'reuse-1' });
    assert.equal(res.ok, false);
    assert.equal(res.reason, 'request_id_reused');
    assert.equal(res.request_id, 'reuse-1');
    assert.match(res.message!, /Use a new request_id/);
    assert.deepEqual(ws.storeBytes(), bytes);
    const other = await ws.dispatch({
      action: 'claimHandoff',
      request_id: 'reuse-1',
      handoffId: ws.storedHandoffs()[0].handoff_id,
      agent: 'claude',
    });
    assert.equal(other.reason, 'request_id_reused', 'a different action under a used id is refused as well');
    assert.equal(ws.storedHandoffs()[0].status, 'queued');
  });

  it('key order and the drop-zone file name do not make a request different', async () => {
    const ws = new TestWorkspace();
    const a = await ws.dispatcher.dispatch(
      {
        request_id: 'order-1',
        handoff: { summary: 'x', to_agents: ['claude'], owner_mode: 'single', from_agent: 'codex' },
        action: 'createHandoff',
      },
      { requestFile: 'a.json' },
    );
    const b = await ws.dispatcher.dispatch(
      {
        action: 'createHandoff',
        request_id: 'order-1',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'x' },
      },
      { requestFile: 'b.json' },
    );
    assert.equal(b.ok, true);
    assert.equal(b.request_file, 'b.json', 'the file name is echoed per request');
    assert.deepEqual({ ...b, request_file: 'a.json' }, a);
    assert.equal(ws.storedHandoffs().length, 1);
  });

  it('without a request_id, two identical requests are two requests', async () => {
    const ws = new TestWorkspace();
    const a = await ws.dispatch(create());
    const b = await ws.dispatch(create());
    assert.notEqual(a.request_id, b.request_id);
    assert.equal(ws.storedHandoffs().length, 2);
  });

  describe('within one batch (requests that arrive together)', () => {
    it('the same request twice: applied once, both answers identical', async () => {
      const ws = new TestWorkspace();
      const req = { ...create(), request_id: 'batch-1' };
      const [a, b] = await Promise.all([ws.dispatch(req), ws.dispatch(req)]);
      assert.equal(ws.storedHandoffs().length, 1);
      assert.deepEqual(b, a);
      const c = await ws.dispatch(req);
      assert.deepEqual(c, a, 'and later the same again');
    });

    it('the same id with different parameters: the second is request_id_reused', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('queued', { owner_mode: 'shared', to_agents: ['claude', 'copilot'] })] });
      const [a, b] = await Promise.all([
        ws.dispatch({ action: 'claimHandoff', request_id: 'batch-2', handoffId: ID, agent: 'mallory' }),
        ws.dispatch({ action: 'claimHandoff', request_id: 'batch-2', handoffId: ID, agent: 'copilot' }),
      ]);
      assert.equal(a.reason, 'not_assigned');
      assert.equal(b.reason, 'request_id_reused', JSON.stringify(b));
      assert.equal(ws.stored(ID).status, 'queued');
    });

    it('a create repeated in one batch with the same id does not allocate two handoff ids', async () => {
      const ws = new TestWorkspace();
      const reqs = Array.from({ length: 5 }, () => ws.dispatch({ ...create(), request_id: 'batch-3' }));
      const answers = await Promise.all(reqs);
      const ids = new Set(answers.map((r) => (r.data as { handoff: Handoff }).handoff.handoff_id));
      assert.equal(ids.size, 1);
      assert.equal(ws.storedHandoffs().length, 1);
    });
  });

  describe('without the ledger (a fresh clone, another machine, a crash before the ledger append)', () => {
    /** What a fresh clone has: the committed store, no runtime ledger. */
    function dropLedger(ws: TestWorkspace): void {
      fs.rmSync(ws.layout.ledgerFile, { force: true });
      fs.rmSync(ws.layout.ledgerFile.replace(/\.jsonl$/, '.prev.jsonl'), { force: true });
    }

    it('a different request reusing an id found in history is refused with request_id_reused, and nothing is applied', async () => {
      const ws = new TestWorkspace({
        handoffs: [handoffIn('queued'), handoffIn('queued', { handoff_id: 'HO-20260221-002', uid: undefined })],
      });
      const first = await ws.dispatch({ action: 'claimHandoff', request_id: 'claim-42', handoffId: ID, agent: 'claude' });
      assert.equal(first.ok, true, JSON.stringify(first));
      dropLedger(ws);
      const fresh = ws.secondDispatcher();
      const bytes = ws.storeBytes();
      const other = await fresh.dispatch({ action: 'claimHandoff', request_id: 'claim-42', handoffId: 'HO-20260221-002', agent: 'claude' });
      assert.equal(other.ok, false, JSON.stringify(other));
      assert.equal(other.reason, 'request_id_reused');
      assert.equal(ws.stored('HO-20260221-002').status, 'queued', 'the other handoff was not claimed');
      assert.deepEqual(ws.storeBytes(), bytes);
      assert.match(ws.stored(ID).state_history.at(-1)!.request_hash ?? '', /^[0-9a-f]+$/, 'the history entry carries the request hash');
    });

    it('the same request replayed is answered replayed:true with its own handoff, applied once', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
      const req = { action: 'claimHandoff', request_id: 'claim-43', handoffId: ID, agent: 'claude' };
      assert.equal((await ws.dispatch(req)).ok, true);
      dropLedger(ws);
      const bytes = ws.storeBytes();
      const again = await ws
        .secondDispatcher()
        .dispatch({ agent: 'claude', handoffId: ID, request_id: 'claim-43', action: 'claimHandoff' });
      assert.equal(again.ok, true, JSON.stringify(again));
      assert.equal(again.data!.replayed, true);
      assert.equal(again.data!.handoff.handoff_id, ID);
      assert.deepEqual(ws.storeBytes(), bytes, 'not applied again');
    });

    it("a reuse does not overwrite the first request's recorded answer: the first request still gets its replay", async () => {
      const ws = new TestWorkspace({
        handoffs: [handoffIn('queued'), handoffIn('queued', { handoff_id: 'HO-20260221-002', uid: undefined })],
      });
      const req = { action: 'claimHandoff', request_id: 'claim-44', handoffId: ID, agent: 'claude' };
      assert.equal((await ws.dispatch(req)).ok, true);
      dropLedger(ws);
      const fresh = ws.secondDispatcher();
      const reuse = await fresh.dispatch({ ...req, handoffId: 'HO-20260221-002' });
      assert.equal(reuse.reason, 'request_id_reused');
      const ledger = fs.existsSync(ws.layout.ledgerFile) ? fs.readFileSync(ws.layout.ledgerFile, 'utf8') : '';
      assert.doesNotMatch(ledger, /claim-44/, 'the refusal of the reuse is not recorded as the answer to claim-44');
      const original = await fresh.dispatch(req);
      assert.equal(original.ok, true, JSON.stringify(original));
      assert.equal(original.data!.replayed, true);
      assert.equal((original.data!.handoff as Handoff).handoff_id, ID);
    });

    it('a history entry written before hashes were recorded is not taken for this request: request_id_reused', async () => {
      const h = handoffIn('in_progress');
      h.state_history = h.state_history.map((e, i) => (i === h.state_history.length - 1 ? { ...e, request_id: 'claim-42' } : e));
      const ws = new TestWorkspace({ handoffs: [h, handoffIn('queued', { handoff_id: 'HO-20260221-002', uid: undefined })] });
      const r = await ws.dispatch({ action: 'claimHandoff', request_id: 'claim-42', handoffId: 'HO-20260221-002', agent: 'claude' });
      assert.equal(r.reason, 'request_id_reused', JSON.stringify(r));
      assert.equal(ws.stored('HO-20260221-002').status, 'queued');
    });
  });
});
