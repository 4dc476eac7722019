// Ids stay unique after a merge, and a published id keeps its record (docs/contract.md §3, §8).
import { compareHandoffIds, dayStamp, HandoffIdAllocator } from '../handoffIds';
import type { Handoff, HandoffsFile } from '../handoffSchema';
import { withPreviousId } from '../previousIds';
import type { MergeNote, MergeOptions, Placed, Side } from './mergeTypes';

/**
 * Ids stay unique, and a published id keeps its record (docs/contract.md §3, §8). The published side's records and
 * the base's keep their ids; a new record of the other (local) side is renumbered when its id is held by another
 * record, or was archived on the published side (its archive when readable, else anything up to its `id_high_water`
 * above the base's). A published new record whose id the local side archived cannot move, and the driver writes only
 * handoffs.json, so the local archived record comes back into it under a new id (finished, as it was).
 * A renumbered record keeps its old id in `previous_ids` and says so in its history.
 */
export function renumberCollisions(
  merged: Placed[],
  everyInput: Handoff[],
  mark: string | undefined,
  sides: Record<'base' | Side, HandoffsFile>,
  options: MergeOptions,
  now: Date,
  notes: MergeNote[],
): Handoff[] {
  const published: Side = options.published ?? 'ours';
  const local: Side = published === 'ours' ? 'theirs' : 'ours';
  const ids = new HandoffIdAllocator([...everyInput, ...merged.map((p) => p.h)], mark);
  const at = now.toISOString();
  const holder = new Map<string, Handoff>();
  for (const p of merged) if (p.from !== local && !holder.has(p.h.handoff_id)) holder.set(p.h.handoff_id, p.h);
  const archivedOnPublished = (id: string): Handoff | 'maybe' | undefined => {
    const lookup = options.archivedIdOn?.[published];
    if (lookup) return lookup(id);
    const top = sides[published].id_high_water;
    const floor = sides.base.id_high_water;
    return top && compareHandoffIds(id, top) <= 0 && (!floor || compareHandoffIds(id, floor) > 0) ? 'maybe' : undefined;
  };
  const renumber = (h: Handoff, other: Handoff | undefined): Handoff => {
    const m = /^HO-(\d{4})(\d{2})(\d{2})-/.exec(h.handoff_id);
    const day = m ? new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00.000Z`) : now;
    const id = ids.next(Number.isNaN(day.getTime()) || !m || dayStamp(day) !== m.slice(1).join('') ? now : day);
    const reason = `renumbered from ${h.handoff_id} by merge`;
    notes.push({
      kind: 'renumbered',
      handoff_id: id,
      message: `${h.handoff_id} (uid ${h.uid ?? 'none'}) collided with another record: now ${id}`,
      previous_id: h.handoff_id,
      ...(h.uid ? { uid: h.uid } : {}),
      ...(other?.uid ? { holder_uid: other.uid } : {}),
    });
    const moved: Handoff = {
      ...withPreviousId(h, h.handoff_id),
      handoff_id: id,
      updated_at: at,
      rev: (h.rev ?? 0) + 1,
      state_history: [...h.state_history, { status: h.status, agent: 'agentsync', timestamp: at, reason }],
    };
    holder.set(id, moved);
    return moved;
  };
  const out = merged.map(({ h, from }) => {
    const held = holder.get(h.handoff_id);
    if (held === h) return h;
    const archived = from === local && !held ? archivedOnPublished(h.handoff_id) : undefined;
    const other = held ?? (archived && archived !== 'maybe' && archived.uid !== h.uid ? archived : undefined);
    if (!held && !other && archived !== 'maybe') {
      holder.set(h.handoff_id, h);
      return h;
    }
    return renumber(h, other);
  });
  const lookupLocal = options.archivedIdOn?.[local];
  if (!lookupLocal) return out;
  const present = new Set(out.map((h) => h.uid).filter(Boolean));
  for (const p of merged) {
    if (p.from !== published) continue;
    const gone = lookupLocal(p.h.handoff_id);
    if (!gone || !gone.uid || gone.uid === p.h.uid || present.has(gone.uid)) continue;
    present.add(gone.uid);
    out.push(renumber(gone, p.h));
  }
  return out;
}
