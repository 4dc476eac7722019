// Which records of the base, ours and theirs are the same record (docs/contract.md §3): matched by uid, by handoff_id
// when a record has none; a record one side archived while the other changed it is merged with its archived copy.
import type { Handoff, HandoffsFile } from '../handoffSchema';
import { same, type Group, type MergeNote, type Side } from './mergeTypes';

export function assertUniqueUids(file: HandoffsFile, name: string): void {
  const seen = new Set<string>();
  for (const h of file.handoffs) {
    if (!h.uid) continue;
    if (seen.has(h.uid))
      throw new Error(`the ${name} version has two records with uid ${h.uid}; give each record its own uid and merge again`);
    seen.add(h.uid);
  }
}

/** Pairs each record with its base and its counterpart, in output order: ours' order, then theirs' new ones. */
export function groupRecords(base: Handoff[], ours: Handoff[], theirs: Handoff[]): Group[] {
  const baseByUid = new Map(base.filter((h) => h.uid).map((h) => [h.uid!, h]));
  const baseById = new Map(base.map((h) => [h.handoff_id, h]));
  // A uid-less base record is the same record as a side's copy with its id that was given a uid since.
  const findBase = (r: Handoff): Handoff | undefined => {
    if (!r.uid) return baseById.get(r.handoff_id);
    const byId = baseById.get(r.handoff_id);
    return baseByUid.get(r.uid) ?? (byId && !byId.uid ? byId : undefined);
  };
  const order = new Set<Group>();
  const byBase = new Map<Handoff, Group>();
  const oursNew: Group[] = [];
  for (const r of ours) {
    const b = findBase(r);
    const g = b && !byBase.get(b)?.ours ? (byBase.get(b) ?? { base: b }) : { ours: r };
    if (b && g.base === b) byBase.set(b, g);
    g.ours = r;
    order.add(g);
    if (!g.base) oursNew.push(g);
  }
  for (const r of theirs) {
    const b = findBase(r);
    let g = b
      ? byBase.get(b)
      : oursNew.find((o) => !o.theirs && (r.uid && o.ours!.uid ? r.uid === o.ours!.uid : r.handoff_id === o.ours!.handoff_id));
    if (b && !g) byBase.set(b, (g = { base: b }));
    if (!g || g.theirs) g = { base: undefined };
    order.add(g);
    g.theirs = r;
  }
  return [...order];
}

/** A record one side no longer has but the other changed: the gone side's archived copy, if there is one, stands in. */
export function withArchivedCopy(g: Group, archivedCopy: (h: Handoff) => Handoff | undefined, notes: MergeNote[]): Group {
  const only = g.ours ?? g.theirs;
  if (!g.base || !only || (g.ours && g.theirs) || same(g.base, only)) return g;
  const copy = archivedCopy(g.base);
  if (!copy || (copy.uid ?? copy.handoff_id) !== (g.base.uid ?? g.base.handoff_id)) return g;
  const gone: Side = g.ours ? 'theirs' : 'ours';
  notes.push({
    kind: 'kept',
    handoff_id: only.handoff_id,
    message: `${only.handoff_id}: archived on ${gone} but changed on the other side: merged with the archived copy, kept in handoffs.json`,
  });
  return { ...g, [gone]: copy };
}
