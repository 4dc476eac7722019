// Loops across the graph (docs/contract.md §6): work made while a session holds one handoff comes from it, so the loop
// rules run over separate handoffs too. Through the real dispatcher, as every surface reaches it.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const CONFIG = { humans: ['dana'] };

/** `agent` (in session `s-<agent>`) creates a handoff to `to`. */
function create(ws: TestWorkspace, agent: string, to: string): Promise<RequestResponse> {
  return ws.dispatch({
    action: 'createHandoff',
    agent,
    session: `s-${agent}`,
    handoff: { from_agent: agent, owner_mode: 'single', to_agents: [to], summary: `${agent} to ${to}` },
  });
}

/** `agent` (in session `s-<agent>`) passes new work to `to`, naming no handoff. */
function pass(ws: TestWorkspace, agent: string, to: string): Promise<RequestResponse> {
  return ws.dispatch({ action: 'passOver', agent, session: `s-${agent}`, to, reason: 'follow_up', summary: `${agent} to ${to}` });
}

function made(r: RequestResponse): Handoff {
  assert.equal(r.ok, true, JSON.stringify(r));
  return r.data!.handoff as Handoff;
}

async function claim(ws: TestWorkspace, h: Handoff, agent: string): Promise<Handoff> {
  const c = await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent, session: `s-${agent}` });
  return made(c);
}

describe('handoff lineage across separate handoffs', () => {
  after(removeTempDirs);

  for (const [how, make] of [
    ['creates', create],
    ['passes', pass],
  ] as const) {
    it(`alice → bob, bob → carol, carol → alice as three separate ${how}: the third is refused E003 naming the lineage`, async () => {
      const ws = new TestWorkspace({ config: CONFIG });
      const first = await claim(ws, made(await make(ws, 'alice', 'bob')), 'bob');
      const second = made(await make(ws, 'bob', 'carol'));
      await claim(ws, second, 'carol');
      const before = ws.storedHandoffs().length;
      const r = await make(ws, 'carol', 'alice');
      assert.deepEqual([r.ok, r.reason, r.code], [false, 'CYCLE_DETECTED', 'E003'], JSON.stringify(r));
      assert.match(
        String(r.message),
        new RegExp(
          `alice is already in the lineage alice → bob → carol → alice \\(this work comes from ${second.handoff_id}, which carol holds\\)`,
        ),
      );
      assert.match(String(r.message), new RegExp(`Finish ${second.handoff_id} and report it`));
      assert.equal(ws.storedHandoffs().length, before, 'a refused create stores nothing');
      assert.equal(second.parent_uid, first.uid, 'bob held one handoff: the new one comes from it');
    });
  }

  it('bob hands new work back to alice once (the return to the origin); alice handing it out to bob again is the ping-pong (E003)', async () => {
    const ws = new TestWorkspace({ config: CONFIG });
    const first = await claim(ws, made(await create(ws, 'alice', 'bob')), 'bob');
    const back = made(await create(ws, 'bob', 'alice'));
    assert.equal(back.parent_uid, first.uid);
    await claim(ws, back, 'alice');
    const r = await create(ws, 'alice', 'bob');
    assert.deepEqual([r.ok, r.code], [false, 'E003'], JSON.stringify(r));
    assert.match(String(r.message), /bob is already in the lineage alice → bob → alice → bob/);
  });

  it('a human is exempt: in the place where carol is refused, dana (a human) creates the work, with no lineage', async () => {
    const ws = new TestWorkspace({ config: CONFIG });
    const first = await claim(ws, made(await create(ws, 'alice', 'bob')), 'bob');
    await claim(ws, made(await create(ws, 'bob', 'carol')), 'carol');
    const toDana = made(await create(ws, 'bob', 'dana'));
    assert.equal(toDana.parent_uid, first.uid);
    await claim(ws, toDana, 'dana');
    assert.equal((await create(ws, 'carol', 'alice')).code, 'E003', 'an agent holding work of that lineage is refused');
    const human = made(await create(ws, 'dana', 'alice'));
    assert.equal(human.status, 'queued');
    assert.equal(human.parent_uid ?? null, null, 'no lineage is inferred for a human');
  });

  it('a session holding two handoffs (or none) infers no parent; another session of the same agent holds nothing', async () => {
    const ws = new TestWorkspace({ config: CONFIG });
    const one = await claim(ws, made(await create(ws, 'alice', 'bob')), 'bob');
    const other = await ws.dispatch({
      action: 'createHandoff',
      agent: 'bob',
      session: 's-bob-2',
      handoff: { from_agent: 'bob', owner_mode: 'single', to_agents: ['alice'], summary: 'from another session' },
    });
    assert.equal(made(other).parent_uid ?? null, null, 'the claim belongs to session s-bob');
    assert.equal(made(await create(ws, 'bob', 'carol')).parent_uid, one.uid);
    await claim(ws, made(await create(ws, 'carol', 'bob')), 'bob');
    assert.equal(made(await create(ws, 'bob', 'alice')).parent_uid ?? null, null, 'two held: which one would be a guess');
  });
});
