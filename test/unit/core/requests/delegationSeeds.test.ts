// Delegation as docs/contract.md §6 describes it, every step through the real dispatcher:
// a pass back to return_to is the return, who reviews returned work, the stored policy governing lease and return.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const report = { status: 'complete', decision: 'PROCEED', context_summary: 'auth reviewed: two issues fixed', findings: {}, issues: [] };

/** One hop of a delegation chain: `from` passes the current work to `to`; `to` claims it when the pass is accepted. */
async function hop(ws: TestWorkspace, from: string, to: string, current: Handoff | undefined, extra: Record<string, unknown> = {}) {
  const r = await ws.dispatch({
    action: 'passOver',
    agent: from,
    to,
    reason: 'code_review',
    summary: `${from} to ${to}`,
    ...(current ? { handoffId: current.handoff_id } : {}),
    ...extra,
  });
  if (!r.ok) return { r, next: undefined };
  const next = r.data!.handoff as Handoff;
  const c = await ws.dispatch({ action: 'claimHandoff', handoffId: next.handoff_id, agent: to });
  assert.equal(c.ok, true, JSON.stringify(c));
  return { r, next: c.data!.handoff as Handoff };
}

/** Walks a delegation chain (`alice → audit → alice`); returns the last response, and the responses before it all succeed. */
async function walk(ws: TestWorkspace, agents: string[]): Promise<RequestResponse> {
  let current: Handoff | undefined;
  let last: RequestResponse | undefined;
  for (let i = 1; i < agents.length; i++) {
    const { r, next } = await hop(ws, agents[i - 1], agents[i], current, { result: report });
    last = r;
    if (i < agents.length - 1) assert.equal(r.ok, true, `${agents.slice(0, i + 1).join(' → ')}: ${JSON.stringify(r)}`);
    current = next;
  }
  return last!;
}

describe('delegation: the examples of docs/contract.md §6 through the dispatcher', () => {
  after(removeTempDirs);

  const refused: [string[], string, string, RegExp][] = [
    [['alice', 'alice'], 'CYCLE_DETECTED', 'E003', /alice cannot pass work to itself/],
    [['alice', 'audit', 'alice', 'audit'], 'CYCLE_DETECTED', 'E003', /audit is already in the chain alice → audit → alice → audit/],
    [['alice', 'a', 'b', 'c', 'd'], 'CHAIN_DEPTH_EXCEEDED', 'E002', /too deep \(4\/3\): alice → a → b → c → d/],
  ];
  for (const [agents, reason, code, message] of refused) {
    it(`refuses ${agents.join(' → ')} (${code} ${reason})`, async () => {
      const ws = new TestWorkspace();
      const r = await walk(ws, agents);
      assert.deepEqual([r.ok, r.reason, r.code], [false, reason, code]);
      assert.match(String(r.message), message);
    });
  }

  const accepted: string[][] = [
    ['alice', 'audit', 'alice'],
    ['alice', 'audit', 'tester', 'reviewer'],
    ['alice', 'scout', 'alice', 'audit', 'alice'],
  ];
  for (const agents of accepted) {
    it(`accepts ${agents.join(' → ')}`, async () => {
      const ws = new TestWorkspace();
      const r = await walk(ws, agents);
      assert.equal(r.ok, true, JSON.stringify(r));
      const last = r.data!.handoff as Handoff;
      assert.deepEqual(last.to_agents, [agents[agents.length - 1]]);
    });
  }

  it('alice → audit → alice is the return: the work completes and its report goes back to alice', async () => {
    const ws = new TestWorkspace();
    const { next: h } = await hop(ws, 'alice', 'audit', undefined);
    const r = await ws.dispatch({
      action: 'passOver',
      agent: 'audit',
      handoffId: h!.handoff_id,
      message: '[pass_over: alice]\n\nSummary: review done\n\nReason: return',
      result: report,
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    const back = ws.stored((r.data!.returned as Handoff).handoff_id);
    assert.deepEqual(
      [back.from_agent, back.to_agents, back.status, back.parent_uid, back.notes, back.result?.context_summary],
      ['audit', ['alice'], 'queued', h!.uid, 'review done', report.context_summary],
    );
    assert.equal(ws.stored(h!.handoff_id).status, 'ready_for_review');
    assert.deepEqual(
      ws.auditFor(r.request_id).map((e) => [e.action, e.to_status]),
      [
        ['passOver', 'ready_for_review'],
        ['returnHandoff', 'queued'],
      ],
    );
  });
});

describe('delegation: who reviews returned work, and the stored policy', () => {
  after(removeTempDirs);

  async function returned(ws: TestWorkspace, extra: Record<string, unknown> = {}): Promise<Handoff> {
    const { next: h } = await hop(ws, 'alice', 'audit', undefined, extra);
    const r = await ws.dispatch({ action: 'returnHandoff', handoffId: h!.handoff_id, agent: 'audit', result: report });
    assert.equal(r.ok, true, JSON.stringify(r));
    return r.data!.returned as Handoff;
  }

  it('under auto_return the agent the work came back to approves it; the agent who returned it may not', async () => {
    const ws = new TestWorkspace({ config: { passOver: { pairs: { 'alice->audit': { auto_return: true } } } } });
    const back = await returned(ws);
    assert.equal(back.status, 'ready_for_review');
    const byAudit = await ws.dispatch({ action: 'transitionHandoff', handoffId: back.handoff_id, agent: 'audit', to: 'approved' });
    assert.deepEqual([byAudit.ok, byAudit.reason], [false, 'not_assigned']);
    assert.match(String(byAudit.message), /only its originator \(alice\)/);
    const byAlice = await ws.dispatch({ action: 'transitionHandoff', handoffId: back.handoff_id, agent: 'alice', to: 'approved' });
    assert.equal(byAlice.ok, true, JSON.stringify(byAlice));
  });

  it('under require_user_approval only a human approves, and the refusal names the policy', async () => {
    const ws = new TestWorkspace({
      config: { humans: ['dana'], passOver: { pairs: { 'alice->audit': { auto_return: true, require_user_approval: true } } } },
    });
    const back = await returned(ws);
    const byAlice = await ws.dispatch({ action: 'transitionHandoff', handoffId: back.handoff_id, agent: 'alice', to: 'approved' });
    assert.deepEqual([byAlice.ok, byAlice.reason], [false, 'not_assigned']);
    assert.match(String(byAlice.message), /require_user_approval, so only a human may/);
    assert.equal(ws.stored(back.handoff_id).status, 'ready_for_review');
    const byDana = await ws.dispatch({ action: 'transitionHandoff', handoffId: back.handoff_id, agent: 'dana', to: 'approved' });
    assert.equal(byDana.ok, true, JSON.stringify(byDana));
  });

  // Under auto_return the returned handoff waits in ready_for_review: [who, move, allowed, what the refusal says].
  const autoReturn: [string, string, boolean, RegExp | null][] = [
    ['alice', 'approved', true, null],
    ['alice', 'in_progress', true, null],
    ['audit', 'approved', false, /audit may not approve .*only its originator \(alice\) or a human may/],
    ['mallory', 'approved', false, /mallory may not approve .*only its originator \(alice\) or a human may/],
    ['human', 'approved', true, null],
    ['dana', 'approved', true, null],
  ];
  for (const [who, to, allowed, says] of autoReturn) {
    it(`auto_return: ${who} ${allowed ? 'may' : 'may not'} move the returned work to ${to}`, async () => {
      const ws = new TestWorkspace({ config: { humans: ['dana'], passOver: { pairs: { 'alice->audit': { auto_return: true } } } } });
      const back = await returned(ws);
      const r = await ws.dispatch({ action: 'transitionHandoff', handoffId: back.handoff_id, agent: who, to });
      assert.equal(r.ok, allowed, JSON.stringify(r));
      if (says) assert.deepEqual([r.reason, r.allowed], ['not_assigned', ['alice']]);
      if (says) assert.match(String(r.message), says);
      assert.equal(ws.stored(back.handoff_id).status, allowed ? to : 'ready_for_review');
    });
  }

  it('require_user_approval: neither the originator nor the receiver approves the passed work or its return; a human approves and merges both', async () => {
    const ws = new TestWorkspace({
      config: { humans: ['dana'], passOver: { pairs: { 'alice->audit': { auto_return: true, require_user_approval: true } } } },
    });
    const { next: h } = await hop(ws, 'alice', 'audit', undefined);
    const r = await ws.dispatch({ action: 'returnHandoff', handoffId: h!.handoff_id, agent: 'audit', result: report });
    const back = r.data!.returned as Handoff;
    for (const id of [h!.handoff_id, back.handoff_id]) {
      for (const agent of ['alice', 'audit', 'mallory']) {
        const refused = await ws.dispatch({ action: 'transitionHandoff', handoffId: id, agent, to: 'approved' });
        assert.deepEqual(
          [refused.ok, refused.reason, refused.policy, refused.allowed],
          [false, 'not_assigned', 'require_user_approval', ['dana']],
        );
        assert.match(
          String(refused.message),
          new RegExp(`${agent} may not approve ${id}: its pass-over policy has require_user_approval, so only a human may`),
        );
      }
      for (const [agent, to] of [
        ['dana', 'approved'],
        ['human', 'merged'],
      ]) {
        const ok = await ws.dispatch({ action: 'transitionHandoff', handoffId: id, agent, to });
        assert.equal(ok.ok, true, JSON.stringify(ok));
      }
      assert.equal(ws.stored(id).status, 'merged');
    }
  });

  it('without auto_return the return is queued for alice alone: only she claims it, completes it and approves it', async () => {
    const ws = new TestWorkspace();
    const back = await returned(ws);
    assert.equal(back.status, 'queued');
    const byAudit = await ws.dispatch({ action: 'claimHandoff', handoffId: back.handoff_id, agent: 'audit' });
    assert.deepEqual([byAudit.reason, byAudit.allowed], ['not_assigned', ['alice']]);
    for (const [action, extra] of [
      ['claimHandoff', {}],
      ['completeHandoff', {}],
      ['transitionHandoff', { to: 'approved' }],
    ] as const) {
      const r = await ws.dispatch({ action, handoffId: back.handoff_id, agent: 'alice', ...extra });
      assert.equal(r.ok, true, `${action}: ${JSON.stringify(r)}`);
    }
    assert.equal(ws.stored(back.handoff_id).status, 'approved');
  });

  it('the inline override is stored on the handoff and governs the lease (timeout_ms) and the return (auto_return)', async () => {
    const ws = new TestWorkspace();
    const override = { timeout_ms: 5_000, auto_return: true };
    const { next: h } = await hop(ws, 'alice', 'audit', undefined, { override });
    assert.equal(ws.stored(h!.handoff_id).policy?.timeout_ms, 5_000);
    assert.equal(Date.parse(h!.lease_expires_at!) - Date.parse(h!.claimed_at!), 5_000);
    const r = await ws.dispatch({ action: 'returnHandoff', handoffId: h!.handoff_id, agent: 'audit', result: report });
    assert.equal((r.data!.returned as Handoff).status, 'ready_for_review');
  });

  it('the stored policy outlives a later change to .agentsync.json', async () => {
    const ws = new TestWorkspace({ config: { passOver: { pairs: { 'alice->audit': { timeout_ms: 60_000 } } } } });
    const p = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'r', summary: 's' });
    ws.writeConfig({ passOver: { pairs: { 'alice->audit': { timeout_ms: 120_000 } } } });
    const c = await ws.dispatch({ action: 'claimHandoff', handoffId: (p.data!.handoff as Handoff).handoff_id, agent: 'audit' });
    const h = c.data!.handoff as Handoff;
    assert.equal(Date.parse(h.lease_expires_at!) - Date.parse(h.claimed_at!), 60_000);
  });
});

describe('delegation: returned work cannot be forged by a pass', () => {
  after(removeTempDirs);

  it('a pass whose reason is "return" is refused (it would let the receiver approve work it was handed)', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch({
      action: 'passOver',
      agent: 'alice',
      to: 'audit',
      reason: 'return',
      summary: 'x',
      return_required: false,
    });
    assert.deepEqual([r.ok, r.reason, r.field], [false, 'invalid_request', 'reason']);
    assert.match(String(r.message), /reserved for work handed back/);
    const list = await ws.dispatch({ action: 'listHandoffs' });
    assert.equal(list.data?.count, 0, 'nothing was written');
  });
});
