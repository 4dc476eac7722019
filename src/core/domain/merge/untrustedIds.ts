// A merged record whose id cannot be trusted (docs/contract.md §3): kept and shown, never used to number new handoffs.
import { untrustedIdReason } from '../handoffIds';
import { LIMITS, type Handoff } from '../handoffSchema';
import type { MergeNote } from './mergeTypes';

type Conflict = NonNullable<Handoff['conflicts']>[number];

/**
 * A record whose id cannot be trusted (dated in the future, or far from its created_at) is kept as it is, never dropped
 * or renumbered behind a human's back, and recorded in its `conflicts` so a human sees it; a future-dated one is
 * never counted by the id allocator (domain/handoffIds.ts), so it cannot push later ids into its day or past the digits.
 */
export function flagUntrustedId(h: Handoff, at: string, notes: MergeNote[]): Handoff {
  const why = untrustedIdReason(h, new Date(at));
  if (!why || h.conflicts?.some((c) => c.field === 'handoff_id' && c.ours === h.handoff_id)) return h;
  const conflict: Conflict = { field: 'handoff_id', ours: h.handoff_id, theirs: h.created_at, resolved_to: h.handoff_id, at };
  notes.push({
    kind: 'conflict',
    handoff_id: h.handoff_id,
    message: `${why}: kept, not used to number new handoffs, recorded in conflicts`,
  });
  return { ...h, rev: (h.rev ?? 0) + 1, conflicts: [...(h.conflicts ?? []), conflict].slice(-LIMITS.conflicts) };
}
