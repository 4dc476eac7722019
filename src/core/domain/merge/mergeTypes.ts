// The shapes of a three-way merge of handoffs.json (mergeStores.ts): its notes, options and result, and the groups a
// record and its counterparts form.
import type { Handoff, HandoffsFile } from '../handoffSchema';
import { stableStringify } from '../stableJson';

export interface MergeNote {
  kind: 'added' | 'merged' | 'conflict' | 'renumbered' | 'deleted' | 'kept';
  handoff_id: string;
  message: string;
  /** On `renumbered`: the id the record had, its uid, and the uid of the record that holds that id now. */
  previous_id?: string;
  uid?: string;
  holder_uid?: string;
}

export type Side = 'ours' | 'theirs';

/**
 * `published`: the side whose ids were already answered to others (the upstream of a pull; docs/contract.md §8): its
 * records keep their ids, and only the other side's new records are renumbered on a collision. Default `ours`.
 * `archivedIdOn`: each side's archive by handoff_id (the archived record with that id, or undefined); a side left out
 * is one whose archive cannot be read, and then its `id_high_water` stands for it.
 */
export interface MergeOptions {
  published?: Side;
  archivedIdOn?: Partial<Record<Side, (id: string) => Handoff | undefined>>;
}

export interface StoreMergeResult {
  file: HandoffsFile;
  notes: MergeNote[];
}

/** A record as the base, ours and theirs hold it (each absent where that version lacks it). */
export interface Group {
  base?: Handoff;
  ours?: Handoff;
  theirs?: Handoff;
}

/** A merged record and where it came from: the base (changed or not), or new on one side (or the same new on both). */
export interface Placed {
  h: Handoff;
  from: 'base' | 'both' | Side;
}

/** Absent and null count as the same value (0.3 files lack the optional fields other writers set to null). */
export const same = (a: unknown, b: unknown): boolean => stableStringify(a ?? null) === stableStringify(b ?? null);
export const show = (v: unknown): string => JSON.stringify(v ?? null).slice(0, 80);
