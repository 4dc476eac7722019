// updateTodos' rules through `agentsync request` as a real process (docs/contract.md §6, "Todos").
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { runCliIn, runCliSync, tempWorkspace } from './processHarness';

const todo = (id: string, status: string) => ({ id, content: `step ${id}`, status });

describe('updateTodos by request (process)', function () {
  this.timeout(120_000);
  let ws: string;
  before(() => {
    ws = tempWorkspace('todos');
    runCliSync(['--dir', ws, 'init']);
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('refuses two in_progress todos and any todo of merged work, with exit 1', () => {
    const id = runCliIn(ws, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'Fix it', '--quiet']).stdout.trim();
    const send = (todos: object[]) =>
      runCliIn(ws, ['request', '-'], JSON.stringify({ action: 'updateTodos', handoffId: id, agent: 'claude', todos }));
    const two = send([todo('a', 'in_progress'), todo('b', 'in_progress')]);
    assert.equal(two.code, 1);
    assert.equal((JSON.parse(two.stdout) as { reason: string }).reason, 'invalid_request');
    assert.equal(send([todo('a', 'in_progress')]).code, 0);
    for (const step of [
      ['claim', id, '--agent', 'claude'],
      ['complete', id, '--agent', 'claude'],
      ['approve', id, '--agent', 'codex'],
      ['merge', id, '--agent', 'codex'],
    ])
      assert.equal(runCliIn(ws, step).code, 0, step.join(' '));
    const merged = send([todo('a', 'completed')]);
    assert.equal(merged.code, 1);
    const body = JSON.parse(merged.stdout) as { reason: string; status: string };
    assert.deepEqual([body.reason, body.status], ['illegal_transition', 'merged']);
  });
});
