// Routing rules 1-6 of docs/contract.md §5, one by one, through createHandoff on a real store; plus agent-name
// normalization and the configured-agents check.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { makeHandoff } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

/** The original plan's capability matrix (docs/contract.md §5 routes by such a map). */
const PLAN_CAPABILITIES = {
  codex: ['code_patch', 'test_authoring', 'shell_checks'],
  copilot: ['inline_refactor', 'pr_review'],
  claude: ['workflow_orchestration', 'policy_review', 'risk_decision'],
};

function create(ws: TestWorkspace, handoff: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<RequestResponse> {
  return ws.dispatch({ action: 'createHandoff', handoff: { from_agent: 'codex', summary: 'Needs review', ...handoff }, ...extra });
}

function created(res: RequestResponse): Handoff {
  assert.equal(res.ok, true, JSON.stringify(res));
  return (res.data as { handoff: Handoff }).handoff;
}

/** `n` in-progress handoffs owned by `agent`, to give it load. */
function busy(agent: string, n: number, start: number): Handoff[] {
  return Array.from({ length: n }, (_, i) =>
    makeHandoff({
      handoff_id: `HO-20260101-${String(start + i).padStart(3, '0')}`,
      to_agents: [agent],
      status: 'in_progress',
      claimed_by: agent,
    }),
  );
}

describe('routing (docs/contract.md §5)', () => {
  after(removeTempDirs);

  describe('rule 1: explicit to_agents win, no capability lookup', () => {
    it('auto with one explicit agent becomes single for that agent, even if it lacks the capability', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'auto', to_agents: ['claude'], required_capabilities: ['code_patch'] }));
      assert.deepEqual([h.owner_mode, h.to_agents, h.status], ['single', ['claude'], 'queued']);
      assert.equal(h.state_history[0].reason, 'created with explicit owners');
    });

    it('auto with two explicit agents becomes shared', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'auto', to_agents: ['codex', 'claude'], required_capabilities: ['pr_review'] }));
      assert.deepEqual([h.owner_mode, h.to_agents], ['shared', ['codex', 'claude']]);
    });

    it('single and shared keep their explicit owners and the capabilities as data', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const single = created(await create(ws, { owner_mode: 'single', to_agents: ['copilot'], required_capabilities: ['code_patch'] }));
      assert.deepEqual([single.owner_mode, single.to_agents, single.required_capabilities], ['single', ['copilot'], ['code_patch']]);
      const pair = created(await create(ws, { owner_mode: 'shared', to_agents: ['claude', 'copilot'] }));
      assert.deepEqual([pair.owner_mode, pair.to_agents], ['shared', ['claude', 'copilot']]);
      assert.equal(pair.state_history[0].reason, 'created');
    });
  });

  describe('rules 2-3: auto, exactly one agent covers everything → single', () => {
    it('pr_review → copilot alone; the history says it was routed automatically and why', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'auto', required_capabilities: ['pr_review'] }));
      assert.deepEqual([h.owner_mode, h.to_agents, h.status], ['single', ['copilot'], 'queued']);
      assert.equal(h.required_capabilities.join(), 'pr_review');
      assert.equal(h.state_history.length, 1);
      assert.match(h.state_history[0].reason!, /^routed automatically: copilot is the only agent with pr_review/);
    });

    it('several capabilities that one agent has together → that agent', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'auto', required_capabilities: ['policy_review', 'risk_decision'] }));
      assert.deepEqual([h.owner_mode, h.to_agents], ['single', ['claude']]);
    });
  });

  describe('rule 4: no single agent, two together → shared', () => {
    it('policy_review + pr_review → claude and copilot share it (the plan example)', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'auto', required_capabilities: ['policy_review', 'pr_review'] }));
      assert.equal(h.owner_mode, 'shared');
      assert.deepEqual([...h.to_agents].sort(), ['claude', 'copilot']);
      assert.equal(h.status, 'queued');
      assert.match(h.state_history[0].reason!, /no single agent has policy_review, pr_review; .* together do/);
    });

    it('a single agent that covers everything is preferred over a pair', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: { a: ['x'], b: ['y'], c: ['x', 'y'] } } });
      const h = created(await create(ws, { from_agent: 'a', owner_mode: 'auto', required_capabilities: ['x', 'y'] }));
      assert.deepEqual([h.owner_mode, h.to_agents], ['single', ['c']]);
    });
  });

  describe('rule 5: several agents cover everything → fewest in_progress, then config order', () => {
    const caps = { a: ['review'], b: ['review'], c: ['review'] };

    it('with equal load, the first in agentCapabilities order', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: caps } });
      const h = created(await create(ws, { from_agent: 'a', owner_mode: 'auto', required_capabilities: ['review'] }));
      assert.deepEqual(h.to_agents, ['a']);
      assert.match(h.state_history[0].reason!, /a, b, c all have review; a has the fewest in-progress handoffs \(0\)/);
    });

    it('the least loaded agent wins; a tie among the least loaded goes to config order', async () => {
      const ws = new TestWorkspace({
        config: { agentCapabilities: caps },
        handoffs: [...busy('a', 2, 1), ...busy('b', 1, 3), ...busy('c', 1, 4)],
      });
      const h = created(await create(ws, { from_agent: 'a', owner_mode: 'auto', required_capabilities: ['review'] }));
      assert.deepEqual(h.to_agents, ['b']);
    });

    it('only in_progress handoffs count as load', async () => {
      const queued = busy('a', 3, 1).map((h) => ({ ...h, status: 'queued' as const, claimed_by: null }));
      const ws = new TestWorkspace({ config: { agentCapabilities: caps }, handoffs: [...queued, ...busy('b', 1, 5), ...busy('c', 1, 6)] });
      const h = created(await create(ws, { from_agent: 'a', owner_mode: 'auto', required_capabilities: ['review'] }));
      assert.deepEqual(h.to_agents, ['a']);
    });

    it('load changes as handoffs are claimed: successive auto handoffs spread out', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: { a: ['review'], b: ['review'] } } });
      const first = created(await create(ws, { from_agent: 'a', owner_mode: 'auto', required_capabilities: ['review'] }));
      assert.deepEqual(first.to_agents, ['a']);
      assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: first.handoff_id, agent: 'a' })).ok, true);
      const second = created(await create(ws, { from_agent: 'a', owner_mode: 'auto', required_capabilities: ['review'] }));
      assert.deepEqual(second.to_agents, ['b']);
    });
  });

  describe('rule 6: unresolved → blocked, the reason names what nobody has', () => {
    it('a capability no agent has: blocked, no owners, the missing capabilities in the history reason', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'auto', required_capabilities: ['pr_review', 'quantum', 'teleport'] }));
      assert.deepEqual([h.status, h.owner_mode, h.to_agents], ['blocked', 'auto', []]);
      assert.equal(h.state_history.length, 1);
      assert.equal(h.state_history[0].status, 'blocked');
      assert.equal(h.state_history[0].reason, 'unroutable: no configured agent has quantum, teleport; a human must assign owners');
    });

    it('every capability exists but no agent or pair covers them all: blocked, saying so', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: { a: ['x'], b: ['y'], c: ['z'] } } });
      const h = created(await create(ws, { from_agent: 'a', owner_mode: 'auto', required_capabilities: ['x', 'y', 'z'] }));
      assert.equal(h.status, 'blocked');
      assert.equal(h.state_history[0].reason, 'unroutable: no one agent or pair of agents covers x, y, z; a human must assign owners');
    });

    it('no agentCapabilities configured at all: blocked, every capability is missing', async () => {
      const ws = new TestWorkspace();
      const h = created(await create(ws, { owner_mode: 'auto', required_capabilities: ['pr_review'] }));
      assert.equal(h.status, 'blocked');
      assert.match(h.state_history[0].reason!, /no configured agent has pr_review/);
    });

    it('a blocked unroutable handoff is rendered with "to: -" and audited as created blocked', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'auto', required_capabilities: ['quantum'] }, { request_id: 'route-6' }));
      assert.match(
        fs.readFileSync(ws.layout.trackerFile, 'utf8'),
        new RegExp(`${h.handoff_id} \\| from: Codex \\| to: - \\| mode: auto \\| status: blocked`),
      );
      const audit = ws.auditFor('route-6');
      assert.equal(audit.length, 1);
      assert.deepEqual([audit[0].from_status, audit[0].to_status], [null, 'blocked']);
    });

    it('auto without capabilities or explicit owners is refused as invalid, nothing stored', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const res = await create(ws, { owner_mode: 'auto' });
      assert.equal(res.reason, 'invalid_request');
      assert.equal(res.field, 'handoff.required_capabilities');
      assert.equal(fs.existsSync(ws.layout.handoffsFile), false);
    });
  });

  describe('skipped handoffs (no_handoff_reason)', () => {
    it('are stored blocked with the reason, and need no owners', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(await create(ws, { owner_mode: 'single', no_handoff_reason: '  docs-only change  ' }));
      assert.deepEqual([h.status, h.to_agents, h.no_handoff_reason], ['blocked', [], 'docs-only change']);
      assert.equal(h.state_history[0].reason, 'skipped: docs-only change');
      assert.match(fs.readFileSync(ws.layout.trackerFile, 'utf8'), /\n {2}- skipped: docs-only change\n/);
    });

    it('a blank reason is refused naming the field', async () => {
      const ws = new TestWorkspace();
      const res = await create(ws, { owner_mode: 'single', to_agents: ['claude'], no_handoff_reason: '   ' });
      assert.deepEqual([res.reason, res.field], ['invalid_request', 'handoff.no_handoff_reason']);
    });

    it('still name only configured agents', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const res = await create(ws, { from_agent: 'gemini', owner_mode: 'single', no_handoff_reason: 'nothing to hand over' });
      assert.equal(res.reason, 'unknown_agent');
    });
  });

  describe('agent names', () => {
    it('are normalized: "Codex" → codex, " Claude " → claude, "Claude Code" → claude-code', async () => {
      const ws = new TestWorkspace();
      const h = created(await create(ws, { from_agent: 'Codex', owner_mode: 'shared', to_agents: [' Claude ', 'Claude Code'] }));
      assert.equal(h.from_agent, 'codex');
      assert.deepEqual(h.to_agents, ['claude', 'claude-code']);
      const claim = await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent: 'CLAUDE' });
      assert.equal(claim.ok, true, JSON.stringify(claim));
      assert.equal(ws.stored(h.handoff_id).claimed_by, 'claude');
    });

    it('the plan request example (Title Case names) is accepted and stored in canonical form', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const h = created(
        await ws.dispatch({
          action: 'createHandoff',
          handoff: {
            task_id: 'AS-210',
            from_agent: 'Codex',
            owner_mode: 'shared',
            to_agents: ['Claude', 'Copilot'],
            summary: 'Needs policy + PR review',
            notes: 'Focus on auth risk and PR narrative.',
          },
        }),
      );
      assert.deepEqual([h.from_agent, h.to_agents, h.owner_mode, h.task_id], ['codex', ['claude', 'copilot'], 'shared', 'AS-210']);
    });

    it('names that cannot be made canonical are refused naming the field', async () => {
      const ws = new TestWorkspace();
      const res = await create(ws, { owner_mode: 'single', to_agents: ['claude!'] });
      assert.equal(res.reason, 'invalid_request');
      assert.equal(res.field, 'handoff.to_agents.0');
    });

    it('unknown agents are refused when agentCapabilities is configured, naming them and the known ones', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES, humans: ['alice'] } });
      const res = await create(ws, { owner_mode: 'shared', to_agents: ['claude', 'Gemini'] });
      assert.equal(res.ok, false);
      assert.equal(res.reason, 'unknown_agent');
      assert.deepEqual(res.unknown, ['gemini']);
      assert.match(res.message!, /codex, copilot, claude, alice, human/);
      assert.equal(fs.existsSync(ws.layout.handoffsFile), false, 'nothing stored');
    });

    it('an unknown from_agent is refused too when agents are configured', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES } });
      const res = await create(ws, { from_agent: 'gemini', owner_mode: 'single', to_agents: ['claude'] });
      assert.equal(res.reason, 'unknown_agent');
      assert.deepEqual(res.unknown, ['gemini']);
    });

    it('configured humans and "human" are known agents', async () => {
      const ws = new TestWorkspace({ config: { agentCapabilities: PLAN_CAPABILITIES, humans: ['alice'] } });
      created(await create(ws, { from_agent: 'human', owner_mode: 'shared', to_agents: ['alice', 'codex'] }));
    });

    it('any canonical id is accepted when no agents are configured', async () => {
      const ws = new TestWorkspace();
      const h = created(await create(ws, { from_agent: 'gemini', owner_mode: 'single', to_agents: ['mistral'] }));
      assert.deepEqual(h.to_agents, ['mistral']);
    });
  });
});
