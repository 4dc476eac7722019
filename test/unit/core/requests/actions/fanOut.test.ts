// Fan-out and join (docs/contract.md §6, "Fan-out and join"): one pass to several agents makes one child each, sharing a
// group; the origin gets one joined return once the last child has ended, whatever ended it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

const report = (summary: string, extra: Record<string, unknown> = {}) => ({
  status: 'complete',
  decision: 'PROCEED',
  context_summary: summary,
  findings: { note: summary },
  issues: [],
  ...extra,
});

async function fanOut(ws: TestWorkspace, to: unknown, extra: Record<string, unknown> = {}) {
  return ws.dispatch({ action: 'passOver', agent: 'alice', to, reason: 'parallel_review', summary: 'Review the login flow', ...extra });
}

async function claim(ws: TestWorkspace, h: Handoff): Promise<void> {
  const c = await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent: h.to_agents[0] });
  assert.equal(c.ok, true, JSON.stringify(c));
}

async function giveBack(ws: TestWorkspace, h: Handoff, summary: string, extra: Record<string, unknown> = {}) {
  const r = await ws.dispatch({ action: 'returnHandoff', handoffId: h.handoff_id, agent: h.to_agents[0], result: report(summary, extra) });
  assert.equal(r.ok, true, JSON.stringify(r));
  return r;
}

/** Handoffs that came back to alice (reason "return"). */
function returnsToAlice(ws: TestWorkspace): Handoff[] {
  return ws.storedHandoffs().filter((h) => h.reason === 'return' && h.to_agents[0] === 'alice');
}

describe('passOver to several agents: fan-out and join', () => {
  after(removeTempDirs);

  it('a three-way fan-out makes three children in one group and joins their reports into ONE return', async () => {
    const ws = new TestWorkspace();
    const r = await fanOut(ws, ['scout', 'plan', 'build']);
    assert.equal(r.ok, true, JSON.stringify(r));
    const children = r.data!.handoffs as Handoff[];
    assert.deepEqual(
      children.map((h) => [h.to_agents, h.owner_mode, h.return_to, h.chain]),
      [
        [['scout'], 'single', 'alice', ['alice', 'scout']],
        [['plan'], 'single', 'alice', ['alice', 'plan']],
        [['build'], 'single', 'alice', ['alice', 'build']],
      ],
    );
    const group = children[0].group!;
    assert.ok(group && children.every((h) => h.group?.id === group.id && h.group.size === 3), 'one group of three');
    assert.match(String(r.data!.notice), /store version 3/, 'the first group turns the store into version 3, and says so');
    assert.match(fs.readFileSync(ws.layout.handoffsFile, 'utf8'), /^\{\n {2}"version": 3,/);

    for (const h of children) await claim(ws, h);
    const first = await giveBack(ws, children[0], 'scout found two callers');
    assert.equal(first.data!.returned, null, 'no return while siblings are still working');
    await giveBack(ws, children[1], 'plan: three steps');
    assert.equal(returnsToAlice(ws).length, 0);
    const last = await giveBack(ws, children[2], 'build: done');
    const joined = last.data!.returned as Handoff;
    assert.ok(joined, JSON.stringify(last.data));
    assert.deepEqual(
      returnsToAlice(ws).map((h) => h.handoff_id),
      [joined.handoff_id],
      'exactly one joined return',
    );
    assert.equal(joined.result!.phase, 'parallel');
    const findings = joined.result!.findings as {
      results: { task_id: string; passed: boolean }[];
      aggregation: { total: number; passed: number };
      reports: Record<string, { agent: string; findings: unknown }>;
    };
    assert.deepEqual(
      findings.results.map((x) => [x.task_id, x.passed]),
      children.map((h) => [h.handoff_id, true]),
    );
    assert.deepEqual([findings.aggregation.total, findings.aggregation.passed], [3, 3]);
    assert.deepEqual(findings.reports[children[1].handoff_id].findings, { note: 'plan: three steps' });
    assert.match(joined.result!.context_summary, /scout found two callers[\s\S]*plan: three steps[\s\S]*build: done/);
    assert.equal(joined.group?.id, group.id);
  });

  it('a child that times out is named in the join, which still comes', async () => {
    const ws = new TestWorkspace();
    const r = await fanOut(ws, ['scout', 'build'], { override: { timeout_ms: 60_000 } });
    const [scout, build] = r.data!.handoffs as Handoff[];
    await claim(ws, scout);
    await claim(ws, build);
    await giveBack(ws, scout, 'scout: done');
    ws.clock.advance(61_000); // build's lease runs out
    const list = await ws.dispatch({ action: 'listHandoffs' });
    assert.equal(list.ok, true);
    assert.equal(ws.stored(build.handoff_id).status, 'escalated');
    const back = returnsToAlice(ws);
    assert.equal(back.length, 1, 'one joined return, no separate timeout return');
    assert.match(back[0].summary, new RegExp(`${build.handoff_id} \\(build\\) timed out`));
    assert.match(back[0].result!.issues.join('\n'), /E010 SUBAGENT_TIMEOUT/);
    const findings = back[0].result!.findings as { aggregation: { passed: number; failed: number } };
    assert.deepEqual([findings.aggregation.passed, findings.aggregation.failed], [1, 1]);
  });

  it('a child blocked by STOP holds the join until a human escalates it', async () => {
    const ws = new TestWorkspace();
    const r = await fanOut(ws, ['scout', 'build']);
    const [scout, build] = r.data!.handoffs as Handoff[];
    await claim(ws, scout);
    await claim(ws, build);
    await giveBack(ws, scout, 'scout: done');
    await giveBack(ws, build, 'build: stuck', { decision: 'STOP', status: 'blocked', issues: ['no credentials'] });
    assert.equal(ws.stored(build.handoff_id).status, 'blocked');
    assert.equal(returnsToAlice(ws).length, 0, 'the blocked child holds the join');
    const brief = await ws.dispatch({ action: 'startSession', agent: 'alice' });
    const held = (brief.data!.briefing as { held_joins?: string[] }).held_joins ?? [];
    assert.match(held.join('\n'), new RegExp(`${build.handoff_id} \\(build, one of 2 parallel passes\\) is blocked: STOP.*until a human`));
    const esc = await ws.dispatch({
      action: 'transitionHandoff',
      handoffId: build.handoff_id,
      agent: 'human',
      to: 'escalated',
      reason: 'give up',
    });
    assert.equal(esc.ok, true, JSON.stringify(esc));
    assert.equal(returnsToAlice(ws).length, 1);
  });

  it('refuses duplicates, one receiver in a list, and more than five, storing nothing', async () => {
    const ws = new TestWorkspace();
    for (const to of [['scout', 'Scout'], ['scout'], ['a', 'b', 'c', 'd', 'e', 'f']]) {
      const r = await fanOut(ws, to);
      assert.equal(r.ok, false, JSON.stringify(to));
      assert.equal(r.reason, 'invalid_request', JSON.stringify(r));
    }
    assert.equal(fs.existsSync(ws.layout.handoffsFile) ? ws.storedHandoffs().length : 0, 0, 'nothing stored');
  });

  it('the group counts as one level of depth: each child is checked on its own chain', async () => {
    const ws = new TestWorkspace({ config: { passOver: { defaults: { max_chain_depth: 1 } } } });
    const r = await fanOut(ws, ['scout', 'build']);
    assert.equal(r.ok, true, JSON.stringify(r));
    const [scout] = r.data!.handoffs as Handoff[];
    await claim(ws, scout);
    const deeper = await ws.dispatch({
      action: 'passOver',
      agent: 'scout',
      handoffId: scout.handoff_id,
      to: ['x', 'y'],
      reason: 'r',
      summary: 's',
    });
    assert.equal(deeper.ok, false);
    assert.equal(deeper.code, 'E002', JSON.stringify(deeper));
  });
});
