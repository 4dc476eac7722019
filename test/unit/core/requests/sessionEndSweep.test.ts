// A receiver that died (docs/contract.md §6): handBackEndedSession hands back what the ended session held, the way a
// timeout does: a fan-out child is named in its group's one joined return; a claim that recorded no session, another
// session's claim and work that was not passed (no return_to) are left alone.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { handBackEndedSession } from '../../../../src/core/requests/sessionEndSweep';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const SESSION = { id: 'sess-1', worktree: 'main', branch: null };

async function ok(ws: TestWorkspace, request: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await ws.dispatch(request);
  assert.equal(r.ok, true, JSON.stringify(r));
  return r.data as Record<string, unknown>;
}

describe('handBackEndedSession: E011 SUBAGENT_CRASHED', () => {
  after(removeTempDirs);

  it("a fan-out child its session held is named in the join as ended by its session's end", async () => {
    const ws = new TestWorkspace();
    const [scout, build] = (
      await ok(ws, { action: 'passOver', agent: 'alice', to: ['scout', 'build'], reason: 'review', summary: 'Review' })
    ).handoffs as Handoff[];
    await ok(ws, { action: 'claimHandoff', handoffId: scout.handoff_id, agent: 'scout', session: 'sess-1' });
    await ok(ws, { action: 'claimHandoff', handoffId: build.handoff_id, agent: 'build', session: 'sess-1' });
    const report = { status: 'complete', decision: 'PROCEED', context_summary: 'scout: done', findings: {}, issues: [] };
    await ok(ws, { action: 'returnHandoff', handoffId: scout.handoff_id, agent: 'scout', session: 'sess-1', result: report });
    const done = await handBackEndedSession(ws.store, ws.dispatcher.replayer, 'build', SESSION, "Claude Code's SessionEnd hook");
    assert.deepEqual(
      done?.timed_out.map((h) => h.handoff_id),
      [build.handoff_id],
    );
    assert.equal(ws.stored(build.handoff_id).status, 'escalated');
    const back = ws.storedHandoffs().filter((h) => h.reason === 'return' && h.to_agents[0] === 'alice');
    assert.equal(back.length, 1, 'one joined return');
    assert.match(back[0].summary, new RegExp(`${build.handoff_id} \\(build\\) its receiver's session ended`));
    assert.match(back[0].result!.issues.join('\n'), /E011 SUBAGENT_CRASHED/);
  });

  it('leaves a claim without a session id, another session, and work that was not passed', async () => {
    const ws = new TestWorkspace();
    const pass = async (session?: string) => {
      const h = (await ok(ws, { action: 'passOver', agent: 'alice', to: 'build', reason: 'review', summary: 'Review' })).handoff as Handoff;
      await ok(ws, { action: 'claimHandoff', handoffId: h.handoff_id, agent: 'build', ...(session ? { session } : {}) });
      return h.handoff_id;
    };
    const ids = [await pass(), await pass('sess-2')];
    const own = (
      await ok(ws, {
        action: 'createHandoff',
        handoff: { from_agent: 'alice', to_agents: ['build'], owner_mode: 'single', summary: 'Not a pass' },
      })
    ).handoff as Handoff;
    await ok(ws, { action: 'claimHandoff', handoffId: own.handoff_id, agent: 'build', session: 'sess-1' });
    const before = JSON.stringify(ws.storedHandoffs());
    assert.equal(await handBackEndedSession(ws.store, ws.dispatcher.replayer, 'build', SESSION, 'test'), null);
    assert.equal(JSON.stringify(ws.storedHandoffs()), before, 'nothing written');
    for (const id of [...ids, own.handoff_id]) assert.equal(ws.stored(id).status, 'in_progress');
  });
});
