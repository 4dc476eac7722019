// The archive loses nothing (docs/agentsync-documentation.md, "The archive"), over arbitrary stores and settings:
//  (a) after a write, every handoff is in exactly one of handoffs.json or the archive, byte for byte as it was, and
//      exactly the due ones (finished past after_days, without conflicts) moved;
//  (b) listHandoffs with archived finds each of them, all at once and one by one (what `agentsync show` sends);
//  (c) a merge where the other branch changed an archived handoff brings it back into handoffs.json (un-archived),
//      a list shows that copy once, and the next write archives it again, the newer copy counting.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { ArchiveReader } from '../../../../../src/core/store/archive/archiveReader';
import { isTerminal, STATUSES, type Handoff, type HandoffsFile } from '../../../../../src/core/domain/handoffSchema';
import { mergeStores } from '../../../../../src/core/domain/merge/mergeStores';
import { handoffIn } from '../../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

/** 100 by default; AGENTSYNC_PROPERTY_RUNS=2000 for a deeper search. */
const RUNS = Number(process.env.AGENTSYNC_PROPERTY_RUNS) || 100;
const NOW = Date.parse('2026-03-10T12:00:00.000Z'); // the test clock
const DAY = 86_400_000;

const recordInput = fc.record({
  status: fc.constantFrom(...STATUSES),
  ageMinutes: fc.integer({ min: 0, max: 40 * 24 * 60 }),
  createdDaysEarlier: fc.integer({ min: 0, max: 40 }),
  conflicted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  notes: fc.string({ maxLength: 30 }),
});

/** Records with unique ids (numbered per day of creation), any status, finished at any age. */
function buildRecords(
  inputs: { status: Handoff['status']; ageMinutes: number; createdDaysEarlier: number; conflicted: boolean; notes: string }[],
): Handoff[] {
  const perDay = new Map<string, number>();
  return inputs.map((r) => {
    const updated = NOW - r.ageMinutes * 60_000;
    const created = new Date(updated - r.createdDaysEarlier * DAY);
    const day = created.toISOString().slice(0, 10).replace(/-/g, '');
    const n = (perDay.get(day) ?? 0) + 1;
    perDay.set(day, n);
    return handoffIn(r.status, {
      handoff_id: `HO-${day}-${String(n).padStart(3, '0')}`,
      created_at: created.toISOString(),
      updated_at: new Date(updated).toISOString(),
      notes: r.notes,
      ...(r.conflicted ? { conflicts: [{ field: 'notes', ours: 'a', theirs: 'b', resolved_to: 'b', at: created.toISOString() }] } : {}),
    });
  });
}

const due = (h: Handoff, days: number | null) =>
  days !== null && isTerminal(h.status) && !h.conflicts?.length && Date.parse(h.updated_at) <= NOW - days * DAY;

function archived(ws: TestWorkspace): Handoff[] {
  if (!fs.existsSync(ws.layout.archiveDir)) return [];
  return fs
    .readdirSync(ws.layout.archiveDir)
    .sort()
    .flatMap((f) => fs.readFileSync(`${ws.layout.archiveDir}/${f}`, 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as Handoff);
}

const storeOf = (ws: TestWorkspace) => JSON.parse(fs.readFileSync(ws.layout.handoffsFile, 'utf8')) as HandoffsFile;
const create = { action: 'createHandoff', handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'new' } };

describe('the archive: properties over arbitrary stores', function () {
  this.timeout(300_000);
  after(removeTempDirs);

  it(`archive, list, show, merge and un-archive by merge lose nothing [${RUNS} runs]`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordInput, { minLength: 1, maxLength: 25 }),
        fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
        fc.nat(),
        async (inputs, days, pick) => {
          const records = buildRecords(inputs);
          const ws = new TestWorkspace({ handoffs: records, config: { archive: { after_days: days } } });
          const base = storeOf(ws);
          const r = await ws.dispatch(create);
          assert.equal(r.ok, true, JSON.stringify(r));
          const created = r.data!.handoff as Handoff;

          // (a)
          const store = storeOf(ws);
          const lines = archived(ws);
          const expectedMoved = records.filter((h) => due(h, days));
          assert.deepEqual(lines.map((h) => h.uid).sort(), expectedMoved.map((h) => h.uid).sort(), 'exactly the due ones moved');
          for (const h of records) {
            const places = store.handoffs.filter((s) => s.uid === h.uid).length + lines.filter((a) => a.uid === h.uid).length;
            assert.equal(places, 1, `${h.handoff_id} is in exactly one place`);
          }
          for (const a of lines)
            assert.deepEqual(
              a,
              records.find((h) => h.uid === a.uid),
              'archived byte for byte',
            );

          // (b)
          const all = await ws.dispatch({ action: 'listHandoffs', archived: true });
          const listed = new Map((all.data!.handoffs as Handoff[]).map((h) => [h.uid!, h]));
          assert.equal(listed.size, records.length + 1);
          for (const h of [...records, created]) assert.deepEqual(listed.get(h.uid!), h);
          for (const h of expectedMoved) {
            const one = await ws.dispatch({ action: 'listHandoffs', handoffId: h.handoff_id, archived: true });
            assert.deepEqual(one.data!.handoffs, [h], `show ${h.handoff_id}`);
          }

          // (c) the other branch (from the store before the archive) changed one of the archived handoffs
          if (expectedMoved.length === 0) return;
          const victim = expectedMoved[pick % expectedMoved.length];
          const changed = { ...victim, notes: `${victim.notes} (edited on the other branch)`, rev: (victim.rev ?? 0) + 1 };
          const theirs = { ...base, handoffs: base.handoffs.map((h) => (h.uid === victim.uid ? changed : h)) };
          const reader = new ArchiveReader(ws.layout);
          const result = mergeStores(base, store, theirs, new Date(NOW), (h) => reader.find(h.handoff_id));
          const back = result.file.handoffs.filter((h) => h.uid === victim.uid);
          assert.equal(back.length, 1, 'the changed handoff is back in handoffs.json');
          assert.equal(back[0].notes, changed.notes);
          assert.equal(back[0].status, victim.status, 'still finished');
          assert.equal(result.file.id_high_water, store.id_high_water, 'the high-water mark survives the merge');

          fs.writeFileSync(ws.layout.handoffsFile, JSON.stringify(result.file, null, 2) + '\n'); // what git checks out
          const fresh = ws.secondDispatcher();
          const merged = await fresh.dispatch({ action: 'listHandoffs', archived: true });
          const copies = merged.data!.handoffs.filter((h) => h.uid === victim.uid);
          assert.deepEqual(copies, [back[0]], 'listed once, as the copy in handoffs.json');
          assert.equal((await fresh.dispatch(create)).ok, true);
          assert.equal(storeOf(ws).handoffs.filter((h) => h.uid === victim.uid).length, 0, 'archived again');
          const shown = await fresh.dispatch({ action: 'listHandoffs', handoffId: victim.handoff_id, archived: true });
          assert.deepEqual(shown.data!.handoffs, [back[0]], 'the newer copy counts');
        },
      ),
      { numRuns: RUNS },
    );
  });
});
