// One record changed on both sides, merged field by field (docs/contract.md §3): histories united, a finished side's
// status kept, what cannot be decided resolved the same way every time and written to the record's `conflicts`.
import { isTerminal, LIMITS, type Handoff, type HistoryEntry } from '../handoffSchema';
import { stableStringify } from '../stableJson';
import { same, show, type Group, type MergeNote, type Side } from './mergeTypes';

type Conflict = NonNullable<Handoff['conflicts']>[number];

/** Decided by their own rules (history union, latest status, rev bump, later time), never compared field by field. */
const DECIDED_FIELDS = new Set(['state_history', 'status', 'rev', 'updated_at', 'conflicts']);
/** Fields that go with a leader: when the leader itself conflicted, their conflict would only repeat it. */
const FOLLOWERS: Record<string, string> = { claimed_at: 'claimed_by', lease_expires_at: 'claimed_by' };

/** The record a group becomes: either side's when only one changed it, merged when both did, none when deleted. */
export function resolveGroup(g: Group, at: string, notes: MergeNote[]): Handoff | undefined {
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

export function mergeRecord(base: Handoff | undefined, o: Handoff, t: Handoff, at: string, notes: MergeNote[]): Handoff {
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
  return out.slice(-LIMITS.conflicts);
}
