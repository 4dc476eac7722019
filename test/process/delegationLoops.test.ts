// Loops across the graph (docs/contract.md §6) as agents meet them: the real CLI as child processes, each agent in a
// session of its own (its vendor's session variable in the environment, as processHarness's sessions do), work made
// while holding one handoff coming from it; and the pair limit holding work for a human until one acts.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { CLI, configureAgents, initWorkspace, NO_SESSION_ENV } from './processHarness';

interface Answer {
  ok: boolean;
  reason?: string;
  code?: string;
  message?: string;
  data?: { handoff: Handoff };
}

/** `agentsync --json <args>` run as `agent`'s shell tool would: in its own session (CLAUDE_CODE_SESSION_ID=s-<agent>). */
function as(ws: string, agent: string, args: string[]): { exit: number | null; answer: Answer } {
  const env = { ...NO_SESSION_ENV, CLAUDE_CODE_SESSION_ID: `s-${agent}` };
  const r = spawnSync(process.execPath, [CLI, '--json', ...args, '--agent', agent], { cwd: ws, env, encoding: 'utf8' });
  return { exit: r.status, answer: JSON.parse(r.stdout) as Answer };
}

function made(r: { exit: number | null; answer: Answer }): Handoff {
  assert.equal(r.exit, 0, JSON.stringify(r.answer));
  return r.answer.data!.handoff;
}

const create = (ws: string, from: string, to: string) =>
  as(ws, from, ['create', '--from', from, '--to', to, '--summary', `${from} to ${to}`]);

describe('loops across separate handoffs and the pair limit (process)', function () {
  this.timeout(120_000);
  let ws: string;
  beforeEach(() => {
    ws = initWorkspace('loops');
    configureAgents(ws);
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('alice → bob, bob → scout, scout → alice as separate creates and a pass: the loop is refused E003, nothing stored', () => {
    const first = made(create(ws, 'alice', 'bob'));
    made(as(ws, 'bob', ['claim', first.handoff_id]));
    const second = made(create(ws, 'bob', 'scout'));
    made(as(ws, 'scout', ['claim', second.handoff_id]));
    const before = fs.readFileSync(`${ws}/.agentsync/handoffs.json`, 'utf8');
    for (const back of [
      create(ws, 'scout', 'alice'),
      as(ws, 'scout', ['pass', '--to', 'alice', '--reason', 'review', '--summary', 'scout to alice']),
    ]) {
      assert.notEqual(back.exit, 0);
      assert.deepEqual([back.answer.ok, back.answer.reason, back.answer.code], [false, 'CYCLE_DETECTED', 'E003']);
      assert.match(String(back.answer.message), /alice is already in the lineage alice → bob → scout → alice/);
    }
    assert.equal(fs.readFileSync(`${ws}/.agentsync/handoffs.json`, 'utf8'), before, 'a refused loop changes nothing');
    assert.equal(second.parent_uid, first.uid, 'bob held one handoff in its session: the new one comes from it');
    // The same work from dana, a human, is accepted: no lineage is inferred for a human.
    made(as(ws, 'dana', ['claim', made(create(ws, 'bob', 'dana')).handoff_id]));
    assert.equal(made(create(ws, 'dana', 'alice')).status, 'queued');
  });

  it('past max_handoffs_per_pair_per_hour the next one waits blocked for a human; agents cannot unblock it, a human can: the count restarts', () => {
    const file = `${ws}/.agentsync.json`;
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...config, passOver: { defaults: { max_handoffs_per_pair_per_hour: 2 } } }));
    made(create(ws, 'alice', 'bob'));
    made(as(ws, 'bob', ['pass', '--to', 'alice', '--reason', 'review', '--summary', 'bob to alice']));
    const held = made(create(ws, 'alice', 'bob'));
    assert.equal(held.status, 'blocked');
    assert.match(String(held.state_history[0].reason), /^pair limit: 2 handoffs between alice and bob in the last hour/);
    for (const agent of ['alice', 'bob']) {
      const refused = as(ws, agent, ['transition', held.handoff_id, '--to', 'queued']);
      assert.deepEqual([refused.exit !== 0, refused.answer.reason], [true, 'not_assigned']);
    }
    assert.equal(made(as(ws, 'dana', ['transition', held.handoff_id, '--to', 'queued'])).status, 'queued');
    assert.equal(made(create(ws, 'alice', 'bob')).status, 'queued', 'the human acted: the count starts again');
  });
});
