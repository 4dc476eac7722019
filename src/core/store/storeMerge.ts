// Three-way merge of handoffs.json for the git merge driver (docs/contract.md §3, §8). Pure: no I/O, the clock is passed in.
// Records are matched by uid (by handoff_id when a record has none); both sides' new handoffs survive; a record
// changed on both sides is merged field by field, and what cannot be decided is resolved the same way every time
// and written to the record's `conflicts` so a human sees it.
import { compareHandoffIds, dayStamp, HandoffIdAllocator, laterId } from '../domain/handoffIds';
import { isTerminal, storeVersionFor, type Handoff, type HandoffsFile, type HistoryEntry } from '../domain/handoffSchema';
import { stableStringify } from '../domain/stableJson';

export interface MergeNote {
  kind: 'added' | 'merged' | 'conflict' | 'renumbered' | 'deleted' | 'kept';
  handoff_id: string;
  message: string;
  /** On `renumbered`: the id the record had, its uid, and the uid of the record that holds that id now. */
  previous_id?: string;
  uid?: string;
  holder_uid?: string;
}

type Side = 'ours' | 'theirs';

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

type Conflict = NonNullable<Handoff['conflicts']>[number];
interface Group {
  base?: Handoff;
  ours?: Handoff;
  theirs?: Handoff;
}

/** Decided by their own rules (history union, latest status, rev bump, later time), never compared field by field. */
const DECIDED_FIELDS = new Set(['state_history', 'status', 'rev', 'updated_at', 'conflicts']);
/** Fields that go with a leader: when the leader itself conflicted, their conflict would only repeat it. */
const FOLLOWERS: Record<string, string> = { claimed_at: 'claimed_by', claimed_session: 'claimed_by', lease_expires_at: 'claimed_by' };
/** The schema's cap on `conflicts`; the oldest entries give way. */
const MAX_CONFLICTS = 100;
/** The schema's cap on `previous_ids`; the oldest give way. */
export const MAX_PREVIOUS_IDS = 20;

/** Absent and null count as the same value (0.3 files lack the optional fields other writers set to null). */
const same = (a: unknown, b: unknown): boolean => stableStringify(a ?? null) === stableStringify(b ?? null);
const show = (v: unknown): string => JSON.stringify(v ?? null).slice(0, 80);

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
    file: withVersion(mark, renumberCollisions(merged, everyInput, mark, sides, options, now, notes)),
    notes,
  };
}

/** A merged record and where it came from: the base (changed or not), or new on one side (or the same new on both). */
interface Placed {
  h: Handoff;
  from: 'base' | 'both' | Side;
}

function assertUniqueUids(file: HandoffsFile, name: string): void {
  const seen = new Set<string>();
  for (const h of file.handoffs) {
    if (!h.uid) continue;
    if (seen.has(h.uid))
      throw new Error(`the ${name} version has two records with uid ${h.uid}; give each record its own uid and merge again`);
    seen.add(h.uid);
  }
}

/** Pairs each record with its base and its counterpart, in output order: ours' order, then theirs' new ones. */
function groupRecords(base: Handoff[], ours: Handoff[], theirs: Handoff[]): Group[] {
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
function withArchivedCopy(g: Group, archivedCopy: (h: Handoff) => Handoff | undefined, notes: MergeNote[]): Group {
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

function resolveGroup(g: Group, at: string, notes: MergeNote[]): Handoff | undefined {
  const { base, ours, theirs } = g;
  if (ours && theirs) {
    if (same(ours, theirs)) return ours;
    if (base && same(base, theirs)) return ours;
    if (base && same(base, ours)) return theirs;
    return mergeRecord(base, ours, theirs, at, notes);
  }
  const only = ours ?? theirs;
  if (!only) return undefined; // deleted on both sides
  if (!base) {
    if (theirs) notes.push({ kind: 'added', handoff_id: theirs.handoff_id, message: `${theirs.handoff_id}: new on theirs, added` });
    return only;
  }
  const gone: Side = ours ? 'theirs' : 'ours';
  if (same(base, only)) {
    notes.push({
      kind: 'deleted',
      handoff_id: base.handoff_id,
      message: `${base.handoff_id}: deleted on ${gone}, unchanged on the other side: stays deleted`,
    });
    return undefined;
  }
  notes.push({
    kind: 'kept',
    handoff_id: only.handoff_id,
    message: `${only.handoff_id}: deleted on ${gone} but changed on the other side: kept`,
  });
  return only;
}

/** Later updated_at wins; on a tie the smaller claimer, then the smaller record text, so the result never depends on luck. */
function winnerOf(o: Handoff, t: Handoff): Side {
  const diff = Date.parse(o.updated_at) - Date.parse(t.updated_at);
  if (diff !== 0) return diff > 0 ? 'ours' : 'theirs';
  const oc = o.claimed_by ?? '';
  const tc = t.claimed_by ?? '';
  if (oc !== tc) return oc < tc ? 'ours' : 'theirs';
  return stableStringify(o) <= stableStringify(t) ? 'ours' : 'theirs';
}

/**
 * The side that reached a terminal state (merged, escalated) when the other did not: nothing leaves a terminal
 * state (docs/agentsync-documentation.md, "Lifecycle"), so a claim or edit made later on the other branch must not
 * reopen finished work. Both terminal, or neither: undefined, and the usual rules apply.
 */
function terminalSideOf(o: Handoff, t: Handoff): Side | undefined {
  if (isTerminal(o.status) === isTerminal(t.status)) return undefined;
  return isTerminal(o.status) ? 'ours' : 'theirs';
}

function mergeRecord(base: Handoff | undefined, o: Handoff, t: Handoff, at: string, notes: MergeNote[]): Handoff {
  const winner = winnerOf(o, t);
  const terminal = terminalSideOf(o, t);
  const fields: Record<string, unknown> = {};
  const found: Conflict[] = [];
  const keys = [...new Set([...Object.keys(o), ...Object.keys(t), ...Object.keys(base ?? {})])];
  for (const k of keys) {
    if (DECIDED_FIELDS.has(k)) continue;
    const [bv, ov, tv] = [
      (base as Record<string, unknown> | undefined)?.[k],
      (o as Record<string, unknown>)[k],
      (t as Record<string, unknown>)[k],
    ];
    let v: unknown;
    if (same(ov, tv)) v = ov ?? tv;
    else if (k === 'uid' && !bv)
      v = [ov, tv].filter(Boolean).sort()[0]; // both sides gave a 0.3 record a uid: not a human's conflict
    else if (terminal) {
      // The finished side's value stands; what the open side changed since the base is flagged for a human.
      v = terminal === 'ours' ? ov : tv;
      const open = terminal === 'ours' ? tv : ov;
      if (!base || !same(bv, open)) found.push({ field: k, ours: ov ?? null, theirs: tv ?? null, resolved_to: v ?? null, at });
    } else if (base && same(bv, ov)) v = tv;
    else if (base && same(bv, tv)) v = ov;
    else {
      v = winner === 'ours' ? ov : tv;
      found.push({ field: k, ours: ov ?? null, theirs: tv ?? null, resolved_to: v ?? null, at });
    }
    if (v !== undefined) fields[k] = v;
  }
  const conflicted = new Set(found.map((c) => c.field));
  const fresh = found.filter((c) => !(FOLLOWERS[c.field] && conflicted.has(FOLLOWERS[c.field])));
  const history = unionHistory(o.state_history, t.state_history);
  const later = winner === 'ours' ? o : t;
  let status = history.length ? history[history.length - 1].status : later.status;
  if (terminal) {
    const kept = terminal === 'ours' ? o.status : t.status;
    fresh.unshift({ field: 'status', ours: o.status, theirs: t.status, resolved_to: kept, at });
    // The united history ends with the open side's later entry: say in it why the record is still finished.
    if (status !== kept) {
      const reason = `merge kept ${kept} from ${terminal}; ${terminal === 'ours' ? 'theirs' : 'ours'} moved it to ${status} later (see conflicts)`;
      history.push({ status: kept, agent: 'agentsync', timestamp: at, reason });
    }
    status = kept;
  }
  const conflicts = unionConflicts([...(o.conflicts ?? []), ...(t.conflicts ?? []), ...fresh]);
  const merged = {
    ...fields,
    status,
    updated_at: later.updated_at,
    state_history: history,
    rev: Math.max(o.rev ?? 0, t.rev ?? 0) + 1,
    ...(conflicts.length ? { conflicts } : {}),
  } as Handoff;
  notes.push({
    kind: 'merged',
    handoff_id: merged.handoff_id,
    message: `${merged.handoff_id}: changed on both sides; histories united (${history.length} entries), status ${merged.status}`,
  });
  for (const c of fresh) {
    notes.push({
      kind: 'conflict',
      handoff_id: merged.handoff_id,
      message: `${merged.handoff_id}: ${c.field} differs (ours ${show(c.ours)}, theirs ${show(c.theirs)}); kept ${show(c.resolved_to)}, recorded in conflicts`,
    });
  }
  return merged;
}

/** Both histories, each entry once (same timestamp, status and agent), oldest first; the sort is stable. */
function unionHistory(a: readonly HistoryEntry[], b: readonly HistoryEntry[]): HistoryEntry[] {
  const seen = new Set<string>();
  const all: HistoryEntry[] = [];
  for (const e of [...a, ...b]) {
    const key = `${e.timestamp}|${e.status}|${e.agent}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all.push(e);
  }
  return all.sort((x, y) => Date.parse(x.timestamp) - Date.parse(y.timestamp));
}

function unionConflicts(list: Conflict[]): Conflict[] {
  const seen = new Set<string>();
  const out = list.filter((c) => {
    const key = stableStringify(c);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  return out.slice(-MAX_CONFLICTS);
}

/**
 * Ids stay unique, and a published id keeps its record (docs/contract.md §3, §8). The published side's records and
 * the base's keep their ids; a new record of the other (local) side is renumbered when its id is held by another
 * record, or was archived on the published side (its archive when readable, else anything up to its `id_high_water`
 * above the base's). A published new record whose id the local side archived cannot move, and the driver writes only
 * handoffs.json, so the local archived record comes back into it under a new id (finished, as it was).
 * A renumbered record keeps its old id in `previous_ids` and says so in its history.
 */
function renumberCollisions(
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
      ...h,
      handoff_id: id,
      previous_ids: [...(h.previous_ids ?? []), h.handoff_id].slice(-MAX_PREVIOUS_IDS),
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

/** A merged file, written as the version its records need (docs/contract.md §3). */
function withVersion(mark: string | undefined, handoffs: Handoff[]): HandoffsFile {
  return { version: storeVersionFor(handoffs), ...(mark ? { id_high_water: mark } : {}), handoffs };
}
