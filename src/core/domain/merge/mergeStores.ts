// Three-way merge of handoffs.json for the git merge driver (docs/contract.md §3, §8). Pure: no I/O, the clock is passed in.
// Records are matched by uid (by handoff_id when a record has none; mergeGroups.ts); both sides' new handoffs survive; a
// record changed on both sides is merged field by field (mergeRecord.ts), and what cannot be decided is resolved the
// same way every time and written to the record's `conflicts` so a human sees it; ids stay unique (renumberCollisions.ts).
import { laterId } from '../handoffIds';
import type { Handoff, HandoffsFile } from '../handoffSchema';
import { assertUniqueUids, groupRecords, withArchivedCopy } from './mergeGroups';
import { resolveGroup } from './mergeRecord';
import type { MergeNote, MergeOptions, Placed, StoreMergeResult } from './mergeTypes';
import { renumberCollisions } from './renumberCollisions';

export type { MergeNote, MergeOptions, StoreMergeResult } from './mergeTypes';

/**
 * `archivedCopy`: the archived copy of a record (docs/agentsync-documentation.md, "The archive"), for a record one side
 * archived (so no longer has) while the other changed it: the two are then merged like any record changed on both
 * sides, so the finished copy's status stands (terminal states win) and the difference is recorded in `conflicts`.
 * Without a copy the changed side's record is kept, as for any record deleted on one side and changed on the other.
 */
export function mergeStores(
  base: HandoffsFile,
  ours: HandoffsFile,
  theirs: HandoffsFile,
  now: Date,
  archivedCopy: (h: Handoff) => Handoff | undefined = () => undefined,
  options: MergeOptions = {},
): StoreMergeResult {
  for (const [name, f] of [
    ['base', base],
    ['ours', ours],
    ['theirs', theirs],
  ] as const)
    assertUniqueUids(f, name);
  const at = now.toISOString();
  const notes: MergeNote[] = [];
  const merged: Placed[] = [];
  for (const g of groupRecords(base.handoffs, ours.handoffs, theirs.handoffs)) {
    const h = resolveGroup(withArchivedCopy(g, archivedCopy, notes), at, notes);
    if (h) merged.push({ h, from: g.base ? 'base' : g.ours && g.theirs ? 'both' : g.ours ? 'ours' : 'theirs' });
  }
  // The archive's high-water mark only rises: the merge keeps the highest, so no side reuses an id the other archived.
  const mark = laterId(laterId(base.id_high_water, ours.id_high_water), theirs.id_high_water);
  const everyInput = [...base.handoffs, ...ours.handoffs, ...theirs.handoffs];
  const sides = { base, ours, theirs };
  return {
    file: {
      version: 1,
      ...(mark ? { id_high_water: mark } : {}),
      handoffs: renumberCollisions(merged, everyInput, mark, sides, options, now, notes),
    },
    notes,
  };
}
