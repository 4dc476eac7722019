// One pass to several agents (docs/contract.md §6, "Fan-out and join"): each receiver gets a child handoff of its own,
// all sharing a group; when the last child has ended, the origin gets one joined return. What counts as ended, and
// the group's limits, are here; the join itself is requests/actions/groupJoin.ts.
import * as z from 'zod';

/** A fan-out names 2 to 5 receivers (one receiver is an ordinary pass). */
export const FAN_OUT = { min: 2, max: 5 } as const;

export const passGroupSchema = z.strictObject({
  /** The group's identity: a ULID shared by its children and its joined return. */
  id: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a group id is a ULID'),
  size: z.number().int().min(FAN_OUT.min).max(FAN_OUT.max),
  /** True on the joined return, absent on the children. */
  join: z.literal(true).optional(),
});

export type PassGroup = z.infer<typeof passGroupSchema>;

/**
 * A child that has ended for the join: returned (ready for review, and whatever review made of it), timed out,
 * escalated or withdrawn. A child still queued or in progress is working; one blocked (STOP, CLARIFY) waits for a human.
 */
export function childEnded(status: string): boolean {
  return status !== 'queued' && status !== 'in_progress' && status !== 'blocked';
}

/** A delegation code at the head of a history reason ("E010 SUBAGENT_TIMEOUT: …"), as the timeout sweep writes it. */
export function endingCode(reason: string | null | undefined): string | null {
  return /^(E0\d\d [A-Z_]+)/.exec(reason ?? '')?.[1] ?? null;
}

/** The tree's and the tracker's mark of a group member: "parallel 1 of 3" (a child), "joined 3" (the join); null otherwise. */
export function groupFlag(
  h: { group?: PassGroup; handoff_id: string },
  siblings: readonly { group?: PassGroup; handoff_id: string }[],
): string | null {
  const g = h.group;
  if (!g) return null;
  if (g.join) return `joined return of ${g.size} parallel passes`;
  const children = siblings.filter((s) => s.group?.id === g.id && !s.group.join);
  const at = children.findIndex((s) => s.handoff_id === h.handoff_id);
  return `parallel ${at >= 0 ? at + 1 : '?'} of ${g.size}`;
}
