// The pair limit (docs/contract.md §6, "Loops across the graph"): past max_handoffs_per_pair_per_hour handoffs between
// two agents with no human action on them, the next one waits blocked for a human. Through the real dispatcher.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { PAIR_LIMIT } from '../../../../src/core/domain/passOverPolicy';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const limited = (n: number) => ({ humans: ['dana'], passOver: { defaults: { max_handoffs_per_pair_per_hour: n } } });

function create(ws: TestWorkspace, from: string, to: string): Promise<RequestResponse> {
  return ws.dispatch({
    action: 'createHandoff',
    agent: from,
    handoff: { from_agent: from, owner_mode: 'single', to_agents: [to], summary: `${from} to ${to}` },
  });
}

function made(r: RequestResponse): Handoff {
  assert.equal(r.ok, true, JSON.stringify(r));
  return r.data!.handoff as Handoff;
}

describe('the pair limit', () => {
  after(removeTempDirs);

  it('past the limit the next handoff of the pair (either way, create or pass) is made blocked, with the count', async () => {
    const ws = new TestWorkspace({ config: limited(3) });
    for (const [from, to] of [
      ['alice', 'bob'],
      ['bob', 'alice'],
      ['alice', 'bob'],
    ])
      assert.equal(made(await create(ws, from, to)).status, 'queued');
    assert.equal(made(await create(ws, 'alice', 'carol')).status, 'queued', 'another pair has its own count');
    const held = made(await create(ws, 'alice', 'bob'));
    assert.equal(held.status, 'blocked');
    assert.match(
      String(held.state_history[0].reason),
      new RegExp(
        '^pair limit: 3 handoffs between alice and bob in the last hour with no human action on them ' +
          '\\(passOver\\.defaults\\.max_handoffs_per_pair_per_hour is 3\\); a human must unblock',
      ),
    );
    const passed = made(await ws.dispatch({ action: 'passOver', agent: 'bob', to: 'alice', reason: 'review', summary: 'again' }));
    assert.equal(passed.status, 'blocked');
    assert.match(String(passed.state_history[0].reason), /^pair limit: 4 handoffs between bob and alice/);
    const unblock = await ws.dispatch({ action: 'transitionHandoff', handoffId: held.handoff_id, agent: 'alice', to: 'queued' });
    assert.deepEqual([unblock.ok, unblock.reason], [false, 'not_assigned'], JSON.stringify(unblock));
    assert.match(String(unblock.message), /the pair limit holds it for a human/);
    assert.equal(ws.stored(held.handoff_id).status, 'blocked');
  });

  it('a human action on any of the pair’s handoffs starts the count again', async () => {
    const ws = new TestWorkspace({ config: limited(2) });
    made(await create(ws, 'alice', 'bob'));
    made(await create(ws, 'alice', 'bob'));
    const held = made(await create(ws, 'alice', 'bob'));
    assert.equal(held.status, 'blocked');
    ws.clock.advance();
    made(await ws.dispatch({ action: 'transitionHandoff', handoffId: held.handoff_id, agent: 'dana', to: 'queued' }));
    ws.clock.advance();
    assert.equal(made(await create(ws, 'alice', 'bob')).status, 'queued', 'dana unblocked one: the count starts again');
    assert.equal(made(await create(ws, 'bob', 'alice')).status, 'queued');
    assert.equal(made(await create(ws, 'alice', 'bob')).status, 'blocked', 'two more since the human: held again');
  });

  it('counts within the window only, and a human’s own work is never held', async () => {
    const ws = new TestWorkspace({ config: limited(2) });
    made(await create(ws, 'alice', 'bob'));
    made(await create(ws, 'alice', 'bob'));
    assert.equal(made(await create(ws, 'dana', 'bob')).status, 'queued');
    assert.equal(made(await create(ws, 'alice', 'bob')).status, 'blocked', 'dana’s handoff did not count for alice and bob');
    ws.clock.advance(PAIR_LIMIT.windowMs + 1);
    assert.equal(made(await create(ws, 'alice', 'bob')).status, 'queued', 'an hour later the earlier three no longer count');
  });

  it(`the built-in limit is ${PAIR_LIMIT.perHour} an hour; an override may lower it, not raise it (E031)`, async () => {
    const ws = new TestWorkspace({ config: { humans: ['dana'] } });
    for (let i = 0; i < PAIR_LIMIT.perHour; i++) assert.equal(made(await create(ws, 'alice', 'bob')).status, 'queued');
    const held = made(await create(ws, 'alice', 'bob'));
    assert.match(
      String(held.state_history[0].reason),
      /20 handoffs between alice and bob .*the built-in max_handoffs_per_pair_per_hour is 20/,
    );
    const raise = await ws.dispatch({
      action: 'passOver',
      agent: 'carol',
      to: 'bob',
      reason: 'r',
      summary: 's',
      override: { max_handoffs_per_pair_per_hour: 50 },
    });
    assert.deepEqual([raise.ok, raise.code], [false, 'E031'], JSON.stringify(raise));
  });
});
