// Pass-over delegation (docs/contract.md §6): lineage, return to the originator, loop prevention, policies, tags.
import * as assert from 'node:assert/strict';
import { parsePassOverTag, parseReturnTag } from '../../../../../src/core/domain/handoffTags';
import { resolvePassOverPolicy } from '../../../../../src/core/domain/passOverPolicy';
import { defaultConfig } from '../../../../../src/core/domain/configSchema';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

const report = { status: 'complete', decision: 'PROCEED', context_summary: 'two issues fixed', findings: {}, issues: [] };

async function pass(ws: TestWorkspace, agent: string, to: string, handoffId?: string, extra: Record<string, unknown> = {}) {
  return ws.dispatch({
    action: 'passOver',
    agent,
    to,
    reason: 'code_review',
    summary: `${agent} to ${to}`,
    ...(handoffId ? { handoffId } : {}),
    ...extra,
  });
}

async function claimed(ws: TestWorkspace, agent: string, to: string, handoffId?: string): Promise<Handoff> {
  const r = await pass(ws, agent, to, handoffId);
  assert.equal(r.ok, true, JSON.stringify(r));
  const h = r.data!.handoff as Handoff;
  const c = await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent: to });
  assert.equal(c.ok, true, JSON.stringify(c));
  return c.data!.handoff as Handoff;
}

describe('passOver', () => {
  after(removeTempDirs);

  it('creates a queued handoff to the receiver with return_to, chain and an audit line', async () => {
    const ws = new TestWorkspace();
    const r = await pass(ws, 'Alice', 'audit', undefined, { files: ['src/auth/login.ts'] });
    assert.equal(r.ok, true, JSON.stringify(r));
    const h = ws.stored((r.data!.handoff as Handoff).handoff_id);
    assert.equal(h.status, 'queued');
    assert.deepEqual(
      [h.from_agent, h.to_agents, h.return_to, h.chain, h.reason],
      ['alice', ['audit'], 'alice', ['alice', 'audit'], 'code_review'],
    );
    assert.deepEqual(h.files, ['src/auth/login.ts']);
    assert.deepEqual(
      ws.auditFor(r.request_id).map((e) => [e.action, e.to_status]),
      [['passOver', 'queued']],
    );
  });

  it('completion by the receiver returns the result to the originator as a new queued handoff', async () => {
    const ws = new TestWorkspace();
    const h = await claimed(ws, 'alice', 'audit');
    const r = await ws.dispatch({ action: 'completeHandoff', handoffId: h.handoff_id, agent: 'audit', result: report });
    assert.equal(r.ok, true, JSON.stringify(r));
    const back = r.data!.returned as Handoff;
    assert.equal(ws.stored(h.handoff_id).status, 'ready_for_review');
    assert.deepEqual(
      [back.from_agent, back.to_agents, back.status, back.parent_uid, back.previous_findings],
      ['audit', ['alice'], 'queued', h.uid, 'two issues fixed'],
    );
    assert.equal(ws.stored(back.handoff_id).result?.context_summary, 'two issues fixed');
  });

  it('auto_return in the pair policy sends the result straight to review', async () => {
    const ws = new TestWorkspace({ config: { passOver: { pairs: { 'alice->audit': { auto_return: true } } } } });
    const h = await claimed(ws, 'alice', 'audit');
    const r = await ws.dispatch({ action: 'returnHandoff', handoffId: h.handoff_id, agent: 'audit', result: report });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal((r.data!.returned as Handoff).status, 'ready_for_review');
  });

  it('STOP keeps the work in front of a human: blocked, nothing returned', async () => {
    const ws = new TestWorkspace();
    const h = await claimed(ws, 'alice', 'audit');
    const r = await ws.dispatch({
      action: 'returnHandoff',
      handoffId: h.handoff_id,
      agent: 'audit',
      result: { ...report, decision: 'STOP', issues: ['no credentials'] },
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.data!.returned, null);
    assert.equal(ws.stored(h.handoff_id).status, 'blocked');
    assert.equal(ws.storedHandoffs().length, 1);
  });

  const refusals: [string, string, (ws: TestWorkspace) => Promise<Record<string, unknown>>, RegExp][] = [
    ['E003', 'CYCLE_DETECTED', async (ws) => pass(ws, 'alice', 'alice'), /alice cannot pass work to itself: alice → alice/],
    [
      'E003',
      'CYCLE_DETECTED',
      async (ws) => {
        // audit passing back to alice is the return; alice passing the returned work out to audit again is the ping-pong.
        const h = await claimed(ws, 'alice', 'audit');
        const back = await claimed(ws, 'audit', 'alice', h.handoff_id);
        return pass(ws, 'alice', 'audit', back.handoff_id);
      },
      /alice → audit → alice → audit/,
    ],
    [
      'E002',
      'CHAIN_DEPTH_EXCEEDED',
      async (ws) => {
        const a = await claimed(ws, 'alice', 'audit');
        const b = await claimed(ws, 'audit', 'scout', a.handoff_id);
        const c = await claimed(ws, 'scout', 'fixer', b.handoff_id);
        return pass(ws, 'fixer', 'tester', c.handoff_id);
      },
      /too deep \(4\/3\): alice → audit → scout → fixer → tester/,
    ],
    ['E001', 'INVALID_SUBAGENT', async (ws) => pass(ws, 'alice', 'Not An Agent!'), /is not an agent id/],
  ];
  for (const [code, reason, act, message] of refusals) {
    it(`${reason} (${code}) is refused with the chain in the message, and the store is unchanged`, async () => {
      const ws = new TestWorkspace();
      const r = await act(ws);
      assert.equal(r.ok, false);
      assert.equal(r.reason, reason);
      assert.equal(r.code, code);
      assert.match(String(r.message), message);
      // Only the setup's own handoffs exist: the refused pass stored nothing (each setup pass is claimed, so "queued" would be it).
      const stored = ws.readText(ws.layout.handoffsFile) === null ? [] : ws.storedHandoffs();
      assert.deepEqual(
        stored.filter((h) => h.status === 'queued'),
        [],
      );
    });
  }

  it('a disabled pair (E004) and a subagent that takes no passes (E013) are refused; unknown agents (E001) when agents are configured', async () => {
    const ws = new TestWorkspace({
      config: {
        agentCapabilities: { alice: ['x'], audit: ['y'], scout: ['z'] },
        passOver: { pairs: { 'alice->audit': { enabled: false } }, subagents: { scout: { can_receive_passes: false } } },
      },
    });
    const disabled = await pass(ws, 'alice', 'audit');
    assert.deepEqual([disabled.reason, disabled.code], ['DISABLED_PAIR', 'E004']);
    const denied = await pass(ws, 'alice', 'scout');
    assert.deepEqual([denied.reason, denied.code], ['PERMISSION_DENIED', 'E013']);
    const unknown = await pass(ws, 'alice', 'ghost');
    assert.deepEqual([unknown.reason, unknown.code], ['INVALID_SUBAGENT', 'E001']);
    assert.equal(ws.readText(ws.layout.handoffsFile), null);
    // An inline override may tighten a restriction, never lift it (E031): the agent asking is the one restricted.
    const override = await pass(ws, 'alice', 'audit', undefined, { override: { enabled: true } });
    assert.deepEqual([override.reason, override.code, override.path], ['PREFERENCE_CONFLICT', 'E031', 'override.enabled']);
    assert.match(String(override.message), /would lift passOver\.pairs\.alice->audit\.enabled \(false\)/);
  });

  it('returnHandoff on work that was not passed over is RETURN_CONTEXT_LOST (E020); a tag naming the wrong agent is INVALID_WORK_OUTPUT (E021)', async () => {
    const ws = new TestWorkspace();
    const plain = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'plain' },
    });
    const id = (plain.data!.handoff as Handoff).handoff_id;
    await ws.dispatch({ action: 'claimHandoff', handoffId: id, agent: 'claude' });
    const lost = await ws.dispatch({ action: 'returnHandoff', handoffId: id, agent: 'claude' });
    assert.deepEqual([lost.reason, lost.code], ['RETURN_CONTEXT_LOST', 'E020']);
    const h = await claimed(ws, 'alice', 'audit');
    const wrong = await ws.dispatch({
      action: 'returnHandoff',
      handoffId: h.handoff_id,
      agent: 'audit',
      message: '[return_to: bob]\nSummary: done',
    });
    assert.deepEqual([wrong.reason, wrong.code], ['INVALID_WORK_OUTPUT', 'E021']);
    assert.equal(ws.stored(h.handoff_id).status, 'in_progress');
  });

  it('returning (or passing back) work nobody claimed says to claim it first, and changes nothing', async () => {
    const ws = new TestWorkspace();
    const r = await pass(ws, 'alice', 'audit');
    const id = (r.data!.handoff as Handoff).handoff_id;
    const back = await ws.dispatch({ action: 'returnHandoff', handoffId: id, agent: 'audit', result: report });
    assert.equal(back.reason, 'illegal_transition');
    assert.match(
      back.message!,
      new RegExp(`${id} is queued: nobody has claimed it\\. Claim it first .*agentsync claim ${id} --agent audit`),
    );
    const passedBack = await pass(ws, 'audit', 'alice', id);
    assert.equal(passedBack.reason, 'illegal_transition');
    assert.match(passedBack.message!, /Claim it first/);
    assert.equal(ws.stored(id).status, 'queued');
    assert.equal(ws.storedHandoffs().length, 1);
  });

  it('a passer who is not involved in the work being passed on is refused (not_assigned)', async () => {
    const ws = new TestWorkspace();
    const h = await claimed(ws, 'alice', 'audit');
    const r = await pass(ws, 'mallory', 'scout', h.handoff_id);
    assert.equal(r.reason, 'not_assigned');
  });

  it('tags in agent text act like the fields', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch({
      action: 'passOver',
      agent: 'alice',
      message: 'Done with auth.\n\n[pass_over: Audit]\n\nSummary of work:\n- src/auth/login.ts: login\n\nReason: code_review',
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    const h = r.data!.handoff as Handoff;
    assert.deepEqual([h.to_agents, h.reason], [['audit'], 'code_review']);
    assert.match(h.summary, /src\/auth\/login\.ts: login/);
    await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent: 'audit' });
    const back = await ws.dispatch({
      action: 'returnHandoff',
      handoffId: h.handoff_id,
      agent: 'audit',
      message: '[return_to: alice]\n\nSummary: Code review complete.',
    });
    assert.equal(back.ok, true, JSON.stringify(back));
    assert.equal((back.data!.returned as Handoff).notes, 'Code review complete.');
    const untagged = await ws.dispatch({ action: 'passOver', agent: 'alice', message: 'no tag here' });
    assert.equal(untagged.reason, 'invalid_request');
  });
});

describe('pass-over tags and policy resolution', () => {
  it('parses the seed formats', () => {
    assert.deepEqual(parsePassOverTag('[pass_over: audit]\n\nSummary:\nfixed it\n\nReason: verify_implementation'), {
      to: 'audit',
      summary: 'fixed it',
      reason: 'verify_implementation',
    });
    assert.equal(parseReturnTag('Findings:\n- x\n[return_to: Alice]\nSummary: ok')?.returnTo, 'alice');
    assert.equal(parsePassOverTag('no tag'), null);
  });

  it('resolves override > pair > subagent > defaults > built-in', () => {
    const config = {
      ...defaultConfig(),
      passOver: {
        defaults: { timeout_ms: 1, max_chain_depth: 5 },
        subagents: { audit: { timeout_ms: 2 } },
        pairs: { 'alice->audit': { timeout_ms: 3 } },
      },
    };
    assert.equal(resolvePassOverPolicy(config, 'alice', 'audit', { timeout_ms: 4 }).timeout_ms, 4);
    assert.equal(resolvePassOverPolicy(config, 'alice', 'audit').timeout_ms, 3);
    assert.equal(resolvePassOverPolicy(config, 'bob', 'audit').timeout_ms, 2);
    assert.equal(resolvePassOverPolicy(config, 'bob', 'scout').timeout_ms, 1);
    assert.equal(resolvePassOverPolicy(config, 'bob', 'scout').max_chain_depth, 5);
    assert.equal(resolvePassOverPolicy(defaultConfig(), 'bob', 'scout').max_chain_depth, 3);
  });
});
