// Ids a git merge moved in this clone (docs/contract.md §8): every surface goes through the dispatcher, so a request
// naming the old id is refused `id_moved` there, by id only, until that agent's startSession briefing told it;
// a clone without the merge driver's note (another clone) answers as usual.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { recordMovedIds, readMovedIds } from '../../../../src/core/store/movedIds';
import { handoffIn } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const OLD = 'HO-20260309-001';
const published = handoffIn('queued', { handoff_id: OLD, summary: 'published upstream', to_agents: ['claude'], owner_mode: 'single' });
const moved = handoffIn('queued', {
  handoff_id: 'HO-20260309-002',
  previous_ids: [OLD],
  summary: 'made in this clone',
  to_agents: ['claude'],
  owner_mode: 'single',
});

describe('ids a merge moved (id_moved)', () => {
  after(removeTempDirs);

  function mergedClone(noted: boolean): TestWorkspace {
    const ws = new TestWorkspace({ handoffs: [published, moved] });
    if (noted)
      recordMovedIds(ws.layout, [
        { id: OLD, uid: moved.uid!, moved_to: moved.handoff_id, holder_uid: published.uid, at: '2026-03-10T00:00:00.000Z' },
      ]);
    return ws;
  }

  it('refuses the old id on every action that names one, naming both records, and changes nothing', async () => {
    const ws = mergedClone(true);
    const before = ws.storeBytes();
    for (const request of [
      { action: 'claimHandoff', handoffId: OLD, agent: 'claude' },
      { action: 'listHandoffs', handoffId: OLD },
      { action: 'heartbeat', handoffId: OLD, agent: 'claude' },
      { action: 'transitionHandoff', handoff_id: OLD, agent: 'claude', to: 'blocked' },
    ]) {
      const r = await ws.dispatch(request);
      assert.equal(r.reason, 'id_moved', `${request.action}: ${JSON.stringify(r)}`);
      assert.deepEqual((r as Record<string, unknown>).moved, { handoff_id: moved.handoff_id, uid: moved.uid });
      assert.deepEqual((r as Record<string, unknown>).now_names, { handoff_id: OLD, uid: published.uid });
      assert.equal(r.data, undefined);
    }
    assert.deepEqual(ws.storeBytes(), before);
    const byUid = await ws.dispatch({ action: 'claimHandoff', handoffId: published.uid, agent: 'claude' });
    assert.equal((byUid.data!.handoff as Handoff).uid, published.uid, 'by uid it acts');
    const byNewId = await ws.dispatch({ action: 'listHandoffs', handoffId: moved.handoff_id });
    assert.equal((byNewId.data!.handoffs as Handoff[])[0].uid, moved.uid, 'by the new id it acts');
  });

  it("an agent's startSession lists the move in its briefing and ends the refusal for that agent only", async () => {
    const ws = mergedClone(true);
    const started = await ws.dispatch({ action: 'startSession', agent: 'codex', goal: 'next' });
    assert.ok(started.ok, JSON.stringify(started));
    assert.deepEqual((started.data!.briefing as { moved_ids: unknown }).moved_ids, [
      { id: OLD, moved_to: moved.handoff_id, uid: moved.uid, now_names: OLD, holder_uid: published.uid },
    ]);
    assert.deepEqual(
      readMovedIds(ws.layout).map((m) => m.told_to),
      [['codex']],
      'marked told to codex in state.json',
    );
    const told = await ws.dispatch({ action: 'heartbeat', handoffId: OLD, agent: 'codex' });
    assert.notEqual(told.reason, 'id_moved', 'codex was told: the id names the published record for it');
    // Claude was not told: it may still hold the old id for the moved record, so it is still refused.
    const before = ws.storeBytes();
    const untold = await ws.dispatch({ action: 'claimHandoff', handoffId: OLD, agent: 'claude' });
    assert.equal(untold.reason, 'id_moved', JSON.stringify(untold));
    assert.deepEqual(ws.storeBytes(), before);
    const anonymous = await ws.dispatch({ action: 'listHandoffs', handoffId: OLD });
    assert.equal((anonymous.data!.handoffs as Handoff[])[0].uid, published.uid, 'a read with no agent follows any briefing');
    const claudeStarts = await ws.dispatch({ action: 'startSession', agent: 'claude', goal: 'later' });
    assert.equal((claudeStarts.data!.briefing as { moved_ids: unknown[] }).moved_ids.length, 1, "claude's briefing lists it too");
    const claimed = await ws.dispatch({ action: 'claimHandoff', handoffId: OLD, agent: 'claude' });
    assert.equal((claimed.data!.handoff as Handoff).uid, published.uid, 'told, claude acts on the published record');
    const again = await ws.dispatch({ action: 'startSession', agent: 'claude', goal: 'again' });
    assert.equal((again.data!.briefing as { moved_ids?: unknown }).moved_ids, undefined, 'told once');
  });

  it('a clone without the note (its agents knew the id as the published one) answers about the published record', async () => {
    const ws = mergedClone(false);
    const r = await ws.dispatch({ action: 'listHandoffs', handoffId: OLD });
    assert.equal((r.data!.handoffs as Handoff[])[0].uid, published.uid);
    assert.equal(fs.existsSync(ws.layout.stateFile), false);
  });
});
