// updateTodos' rules (docs/contract.md §6, "Todos"): finished work keeps its list, and one todo at a time is in progress.
import * as assert from 'node:assert/strict';
import { handoffIn } from '../../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

const ID = 'HO-20260221-001';
const todo = (id: string, status: string) => ({ id, content: `step ${id}`, status, priority: 'medium' });

describe('updateTodos (docs/contract.md §6, "Todos")', () => {
  after(removeTempDirs);

  for (const status of ['merged', 'escalated'] as const) {
    it(`a ${status} handoff's todos are refused (illegal_transition), nothing changes`, async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn(status)] });
      const bytes = ws.storeBytes();
      const r = await ws.dispatch({ action: 'updateTodos', handoffId: ID, agent: 'human', todos: [todo('1', 'pending')] });
      assert.equal(r.ok, false, JSON.stringify(r));
      assert.equal(r.reason, 'illegal_transition');
      assert.equal(r.status, status);
      assert.match(r.message!, new RegExp(`is ${status}; only open work has todos`));
      assert.deepEqual(ws.storeBytes(), bytes);
    });
  }

  it('two in_progress todos are refused naming both; one in_progress and the rest pending is stored', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
    const bytes = ws.storeBytes();
    const two = await ws.dispatch({
      action: 'updateTodos',
      handoffId: ID,
      agent: 'claude',
      todos: [todo('a', 'in_progress'), todo('b', 'in_progress'), todo('c', 'pending')],
    });
    assert.equal(two.ok, false);
    assert.equal(two.reason, 'invalid_request');
    assert.equal(two.field, 'todos');
    assert.deepEqual(two.in_progress, ['a', 'b']);
    assert.deepEqual(ws.storeBytes(), bytes);
    const one = await ws.dispatch({
      action: 'updateTodos',
      handoffId: ID,
      agent: 'claude',
      todos: [todo('a', 'in_progress'), todo('b', 'pending')],
    });
    assert.equal(one.ok, true, JSON.stringify(one));
    assert.deepEqual(
      ws.stored(ID).todos?.map((t) => [t.id, t.status]),
      [
        ['a', 'in_progress'],
        ['b', 'pending'],
      ],
    );
  });
});
