// The archive (docs/agentsync-documentation.md, "The archive"): finished handoffs past archive.after_days leave
// handoffs.json for .agentsync/archive/YYYY-MM.jsonl on the next accepted write, ids are never reused, and every
// lookup still finds them. The test clock stands at 2026-03-10; the fixtures' records date from 2026-02-21.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { handoffIn } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const create = (summary: string) => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary },
});

function archiveLines(ws: TestWorkspace, month = '2026-02'): Handoff[] {
  const file = path.join(ws.layout.archiveDir, `${month}.jsonl`);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'), 'an archive file ends with a whole line');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Handoff);
}

function storeFile(ws: TestWorkspace): { id_high_water?: string; handoffs: Handoff[] } {
  return JSON.parse(fs.readFileSync(ws.layout.handoffsFile, 'utf8')) as { id_high_water?: string; handoffs: Handoff[] };
}

const merged = handoffIn('merged', { handoff_id: 'HO-20260221-001' });
const escalated = handoffIn('escalated', { handoff_id: 'HO-20260221-002' });
const queued = handoffIn('queued', { handoff_id: 'HO-20260221-003' });
/** Merged five days before the clock: younger than the default 14 days. */
const recent = handoffIn('merged', { handoff_id: 'HO-20260305-001', updated_at: '2026-03-05T12:00:00.000Z' });

describe('the archive', () => {
  after(removeTempDirs);

  it('moves merged and escalated handoffs past after_days to archive/YYYY-MM.jsonl on the next accepted write, once', async () => {
    const ws = new TestWorkspace({ handoffs: [merged, escalated, queued, recent] });
    const before = ws.storeBytes();
    const refused = await ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20260221-999', agent: 'claude' });
    assert.equal(refused.reason, 'not_found');
    assert.deepEqual(ws.storeBytes(), before, 'a refusal changes nothing, not even by archiving');
    assert.equal(fs.existsSync(ws.layout.archiveDir), false);

    const r = await ws.dispatch(create('next'));
    assert.equal(r.ok, true, JSON.stringify(r));
    const file = storeFile(ws);
    assert.deepEqual(
      file.handoffs.map((h) => h.handoff_id),
      ['HO-20260221-003', 'HO-20260305-001', 'HO-20260310-001'],
    );
    assert.equal(file.id_high_water, 'HO-20260221-002', 'the highest archived id is kept');
    assert.deepEqual(archiveLines(ws), [merged, escalated], 'one line per record, exactly as it was');
    assert.doesNotMatch(fs.readFileSync(ws.layout.trackerFile, 'utf8'), /HO-20260221-001/);
    assert.deepEqual((ws.stateJson().handoffCounts as Record<string, number>).merged, 1);

    await ws.dispatch(create('again'));
    assert.equal(archiveLines(ws).length, 2, 'nothing is archived twice');
  });

  it('keeps everything with after_days null, and a handoff with merge conflicts until a human clears them', async () => {
    const conflicted = handoffIn('merged', {
      handoff_id: 'HO-20260221-004',
      conflicts: [{ field: 'summary', ours: 'a', theirs: 'b', resolved_to: 'b', at: '2026-02-21T21:10:00.000Z' }],
    });
    const off = new TestWorkspace({ handoffs: [merged, escalated], config: { archive: { after_days: null } } });
    await off.dispatch(create('x'));
    assert.equal(storeFile(off).handoffs.length, 3);
    assert.equal(fs.existsSync(off.layout.archiveDir), false);

    const ws = new TestWorkspace({ handoffs: [conflicted] });
    await ws.dispatch(create('x'));
    assert.ok(
      storeFile(ws).handoffs.some((h) => h.handoff_id === 'HO-20260221-004'),
      'waits for a human',
    );
    const cleared = await ws.dispatch({ action: 'clearConflicts', handoffId: 'HO-20260221-004', agent: 'human' });
    assert.equal(cleared.ok, true, JSON.stringify(cleared));
    ws.clock.advance(15 * 86_400_000);
    await ws.dispatch(create('y'));
    assert.deepEqual(
      archiveLines(ws).map((h) => [h.handoff_id, h.conflicts]),
      [['HO-20260221-004', undefined]],
    );
  });

  it('never hands out an archived id again, also in a fresh process whose store no longer holds it', async () => {
    const today = handoffIn('merged', { handoff_id: 'HO-20260310-001', updated_at: '2026-03-10T11:00:00.000Z' });
    const ws = new TestWorkspace({ handoffs: [today, queued], config: { archive: { after_days: 0 } } });
    const claim = await ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20260221-003', agent: 'claude' });
    assert.equal(claim.ok, true, JSON.stringify(claim));
    assert.deepEqual(
      archiveLines(ws, '2026-03').map((h) => h.handoff_id),
      ['HO-20260310-001'],
    );
    const r = await ws.secondDispatcher().dispatch(create('after the archive'));
    assert.equal((r.data!.handoff as Handoff).handoff_id, 'HO-20260310-002');
  });

  it('keeps the high-water mark when a running process re-reads a store changed behind its back (only changed records checked)', async () => {
    const today = handoffIn('merged', { handoff_id: 'HO-20260310-001', updated_at: '2026-03-10T11:00:00.000Z' });
    const ws = new TestWorkspace({ handoffs: [today, queued], config: { archive: { after_days: 0 } } });
    await ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20260221-003', agent: 'claude' });
    // A git pull: the same layout, one record changed, no stamp vouching for it.
    const text = fs.readFileSync(ws.layout.handoffsFile, 'utf8');
    fs.writeFileSync(ws.layout.handoffsFile, text.replace('"notes": "Check regression risk."', '"notes": "pulled"'));
    const r = await ws.dispatch(create('after the pull'));
    assert.equal((r.data!.handoff as Handoff).handoff_id, 'HO-20260310-002');
    assert.equal(storeFile(ws).id_high_water, 'HO-20260310-001');
  });

  it('listHandoffs with archived (and handoffId) finds archived handoffs; the store copy wins over an archived one', async () => {
    const ws = new TestWorkspace({ handoffs: [merged, escalated, queued] });
    await ws.dispatch(create('next'));
    const all = await ws.dispatch({ action: 'listHandoffs', archived: true });
    assert.deepEqual(
      (all.data!.handoffs as Handoff[]).map((h) => h.handoff_id),
      ['HO-20260221-001', 'HO-20260221-002', 'HO-20260221-003', 'HO-20260310-001'],
    );
    assert.equal(all.data!.archived, 2);
    const plain = await ws.dispatch({ action: 'listHandoffs' });
    assert.equal(plain.data!.count, 2, 'without archived: handoffs.json only');

    for (const ref of [merged.handoff_id, merged.uid!]) {
      const one = await ws.dispatch({ action: 'listHandoffs', handoffId: ref, archived: true });
      assert.deepEqual(one.data!.handoffs, [merged], `by ${ref}`);
      assert.equal(one.data!.archived, 1);
      assert.equal((await ws.dispatch({ action: 'listHandoffs', handoffId: ref })).data!.count, 0, 'not without archived');
    }
    const esc = await ws.dispatch({ action: 'listHandoffs', archived: true, status: 'escalated' });
    assert.deepEqual(
      (esc.data!.handoffs as Handoff[]).map((h) => h.handoff_id),
      ['HO-20260221-002'],
    );

    // A copy in both places (a merge brought one back), a newer archived copy, and a line that is not a record.
    const file = path.join(ws.layout.archiveDir, '2026-02.jsonl');
    const stale = { ...queued, summary: 'an old archived copy', rev: 99 };
    const newer = { ...merged, summary: 'archived again after a change', rev: (merged.rev ?? 0) + 1 };
    fs.appendFileSync(file, `${JSON.stringify(stale)}\nnot json\n${JSON.stringify(newer)}\n`);
    const again = await ws.dispatch({ action: 'listHandoffs', archived: true });
    const byId = new Map((again.data!.handoffs as Handoff[]).map((h) => [h.handoff_id, h]));
    assert.equal(again.data!.count, 4, 'each handoff once');
    assert.equal(byId.get('HO-20260221-003')!.summary, queued.summary, "the store's copy wins");
    assert.equal(byId.get('HO-20260221-001')!.summary, 'archived again after a change', 'the higher rev wins');
    assert.ok(
      ws.warnings.some((w) => /archive\/2026-02\.jsonl/.test(w)),
      `the broken line is reported: ${ws.warnings.join(' | ')}`,
    );
  });

  it("an id a merge moved a handoff away from names the other handoff, though the moved one's old line stays in the archive", async () => {
    // A git merge brought archived R back as HO-20260221-005 (previous_ids: its old id), because a published P kept
    // HO-20260221-001; later P was archived too. R's old line (higher rev) must not answer for P's id.
    const id = 'HO-20260221-001';
    const p = handoffIn('merged', { handoff_id: id, summary: 'the published one', rev: 3 });
    const rOld = handoffIn('merged', { handoff_id: id, summary: 'the local one, archived before the merge', rev: 9 });
    const r = { ...rOld, handoff_id: 'HO-20260221-005', previous_ids: [id], rev: 10, updated_at: '2026-03-09T12:00:00.000Z' };
    const ws = new TestWorkspace({ handoffs: [r], config: { archive: { after_days: 14 } } });
    fs.mkdirSync(ws.layout.archiveDir, { recursive: true });
    const file = path.join(ws.layout.archiveDir, '2026-02.jsonl');
    fs.writeFileSync(file, `${JSON.stringify(rOld)}\n${JSON.stringify(p)}\n`);
    const shown = async () => (await ws.dispatch({ action: 'listHandoffs', handoffId: id, archived: true })).data!.handoffs as Handoff[];
    assert.deepEqual(
      (await shown()).map((h) => h.uid),
      [p.uid],
      'R is live under its new id',
    );
    fs.appendFileSync(file, `${JSON.stringify(r)}\n`); // R archived again, under its new id
    fs.writeFileSync(ws.layout.handoffsFile, JSON.stringify({ version: 1, id_high_water: r.handoff_id, handoffs: [] }));
    assert.deepEqual(
      (await shown()).map((h) => h.uid),
      [p.uid],
      'R archived again: its newest line carries its new id',
    );
  });

  it('an archived handoff answers as what it is (merged, escalated): every change is refused and nothing is written', async () => {
    const ws = new TestWorkspace({ handoffs: [merged, escalated, queued] });
    await ws.dispatch(create('next'));
    const withConflicts = {
      ...handoffIn('merged', { handoff_id: 'HO-20260221-005' }),
      conflicts: [{ field: 'summary', ours: 'a', theirs: 'b', resolved_to: 'b', at: '2026-02-21T21:10:00.000Z' }],
    };
    fs.appendFileSync(path.join(ws.layout.archiveDir, '2026-02.jsonl'), JSON.stringify(withConflicts) + '\n');
    const store = ws.storeBytes();
    const archive = fs.readFileSync(path.join(ws.layout.archiveDir, '2026-02.jsonl'));
    const cases: [Record<string, unknown>, string][] = [
      [{ action: 'claimHandoff', handoffId: merged.handoff_id, agent: 'claude' }, 'not_claimable'],
      [{ action: 'transitionHandoff', handoffId: escalated.handoff_id, agent: 'human', to: 'queued' }, 'illegal_transition'],
      [{ action: 'passOver', handoffId: merged.handoff_id, agent: 'claude', to: 'codex', reason: 'review', summary: 's' }, 'not_claimable'],
      [{ action: 'clearConflicts', handoffId: withConflicts.handoff_id, agent: 'human' }, 'archived'],
    ];
    for (const [request, reason] of cases) {
      const r = await ws.dispatch(request);
      assert.equal(r.reason, reason, `${String(request.action)}: ${JSON.stringify(r)}`);
    }
    assert.deepEqual(ws.storeBytes(), store);
    assert.deepEqual(fs.readFileSync(path.join(ws.layout.archiveDir, '2026-02.jsonl')), archive);
  });

  it('repairs a pass a kill interrupted: lines already written are not written again, a cut line is cut off', async () => {
    const third = handoffIn('merged', { handoff_id: 'HO-20260221-006' });
    const ws = new TestWorkspace({ handoffs: [merged, escalated, third, queued] });
    // What a pass killed after two whole lines, in the middle of the third, leaves: all three still in the store.
    fs.mkdirSync(ws.layout.archiveDir);
    const older = handoffIn('merged', { handoff_id: 'HO-20260220-001', updated_at: '2026-02-20T10:00:00.000Z' });
    const cut = JSON.stringify(third).slice(0, 100);
    fs.writeFileSync(
      path.join(ws.layout.archiveDir, '2026-02.jsonl'),
      [older, merged, escalated].map((h) => JSON.stringify(h) + '\n').join('') + cut,
    );
    const r = await ws.dispatch(create('next'));
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(
      archiveLines(ws).map((h) => h.handoff_id),
      ['HO-20260220-001', 'HO-20260221-001', 'HO-20260221-002', 'HO-20260221-006'],
      'each record once, the cut line replaced by the whole one',
    );
    assert.deepEqual(
      storeFile(ws).handoffs.map((h) => h.handoff_id),
      ['HO-20260221-003', 'HO-20260310-001'],
    );
  });

  it('a whole record a hand left without its newline is read and kept; a line being appended is not an error', async () => {
    const ws = new TestWorkspace({ handoffs: [merged, queued] });
    fs.mkdirSync(ws.layout.archiveDir);
    const file = path.join(ws.layout.archiveDir, '2026-02.jsonl');
    fs.writeFileSync(file, JSON.stringify(escalated)); // no newline
    const listed = await ws.dispatch({ action: 'listHandoffs', handoffId: escalated.handoff_id, archived: true });
    assert.deepEqual(listed.data!.handoffs, [escalated]);
    await ws.dispatch(create('next'));
    assert.deepEqual(archiveLines(ws), [escalated, merged], 'kept, and the next line starts on its own line');

    fs.appendFileSync(file, JSON.stringify(queued).slice(0, 50)); // what a reader sees mid-append
    const during = await ws.dispatch({ action: 'listHandoffs', archived: true });
    assert.equal(during.data!.archived, 2);
    assert.deepEqual(ws.warnings, [], 'nothing to warn about');
  });

  it('refuses to follow a symlinked archive folder: the records stay in handoffs.json', async () => {
    const ws = new TestWorkspace({ handoffs: [merged, queued] });
    const outside = fs.mkdtempSync(path.join(path.dirname(ws.root), 'outside-'));
    fs.symlinkSync(outside, ws.layout.archiveDir);
    const r = await ws.dispatch(create('next'));
    assert.equal(r.ok, true, 'the write itself goes through');
    assert.equal(storeFile(ws).handoffs.length, 3, 'nothing left the store');
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written through the link');
    assert.ok(ws.warnings.some((w) => /could not archive/.test(w)));
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
