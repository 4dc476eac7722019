// assignHandoff (docs/contract.md §5, §8): a human gives a handoff routing blocked (no agent has the capabilities) to named agents.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

const config = { agentCapabilities: { codex: ['code_patch'], claude: ['policy_review'] }, humans: ['dana'] };

async function blocked(ws: TestWorkspace): Promise<Handoff> {
  const r = await ws.dispatch({
    action: 'createHandoff',
    handoff: { from_agent: 'claude', owner_mode: 'auto', required_capabilities: ['gpu_tuning'], summary: 'tune the kernel' },
  });
  assert.equal(r.ok, true, JSON.stringify(r));
  const h = r.data!.handoff as Handoff;
  assert.equal(h.status, 'blocked', 'nobody has gpu_tuning, so routing blocks it');
  return h;
}

describe('assignHandoff', () => {
  after(removeTempDirs);

  it('a human assigns a blocked handoff to one agent: queued, single owner, a history entry; the owner can claim', async () => {
    const ws = new TestWorkspace({ config });
    const h = await blocked(ws);
    const r = await ws.dispatch({ action: 'assignHandoff', handoffId: h.handoff_id, agent: 'human', to_agents: ['codex'] });
    assert.equal(r.ok, true, JSON.stringify(r));
    const s = ws.stored(h.handoff_id);
    assert.equal(s.status, 'queued');
    assert.deepEqual(s.to_agents, ['codex']);
    assert.equal(s.owner_mode, 'single');
    const last = s.state_history[s.state_history.length - 1];
    assert.equal(last.agent, 'human');
    assert.match(last.reason ?? '', /assigned to codex/);
    const c = await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent: 'codex' });
    assert.equal(c.ok, true, JSON.stringify(c));
  });

  it('a configured human assigns to two agents (shared)', async () => {
    const ws = new TestWorkspace({ config });
    const h = await blocked(ws);
    const r = await ws.dispatch({ action: 'assignHandoff', handoffId: h.handoff_id, agent: 'dana', to_agents: ['codex', 'claude'] });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(ws.stored(h.handoff_id).owner_mode, 'shared');
  });

  it('an agent that is not a human is refused with not_assigned and nothing changes', async () => {
    const ws = new TestWorkspace({ config });
    const h = await blocked(ws);
    const r = await ws.dispatch({ action: 'assignHandoff', handoffId: h.handoff_id, agent: 'codex', to_agents: ['codex'] });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'not_assigned');
    assert.deepEqual(ws.stored(h.handoff_id), h);
  });

  it('a handoff in progress cannot be assigned; three agents are refused by the schema', async () => {
    const ws = new TestWorkspace({ config });
    const h = await blocked(ws);
    await ws.dispatch({ action: 'assignHandoff', handoffId: h.handoff_id, agent: 'human', to_agents: ['codex'] });
    await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent: 'codex' });
    const late = await ws.dispatch({ action: 'assignHandoff', handoffId: h.handoff_id, agent: 'human', to_agents: ['claude'] });
    assert.equal(late.reason, 'illegal_transition');
    const many = await ws.dispatch({ action: 'assignHandoff', handoffId: h.handoff_id, agent: 'human', to_agents: ['a', 'b', 'c'] });
    assert.equal(many.ok, false);
  });

  it('an agent that is not configured is refused with unknown_agent (a typo hands work to nobody) and nothing changes', async () => {
    const ws = new TestWorkspace({ config });
    const h = await blocked(ws);
    const r = await ws.dispatch({ action: 'assignHandoff', handoffId: h.handoff_id, agent: 'human', to_agents: ['codx'] });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'unknown_agent');
    assert.match(r.message ?? '', /Unknown agent\(s\) codx: the configured agents are codex, claude, dana, human/);
    assert.deepEqual(ws.stored(h.handoff_id), h);
  });
});
