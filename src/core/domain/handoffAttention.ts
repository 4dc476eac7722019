// What needs whose attention: staleness (docs/contract.md §6) and the groups of the editor's Handoffs tree (docs/contract.md §10).
// Pure functions over records and config, so every surface (tree, badge, CLI) agrees on "stale" and "mine".
import { isHuman } from './agentId';
import { isTerminal, type Handoff } from './handoffSchema';
import { isInvolved, originatorOf } from './lifecycle';
import { isSnoozed } from './snoozeTime';
import type { AgentSyncConfig } from './configSchema';

/** True when an in-progress handoff's lease has run out: the badge shows it stale, and expireLeases releases it. */
export function leaseExpired(h: Handoff, now: Date): boolean {
  if (h.status !== 'in_progress' || !h.lease_expires_at) return false;
  const until = Date.parse(h.lease_expires_at);
  return Number.isFinite(until) && until <= now.getTime();
}

/** Why an open handoff is stale (its lease expired, or no update for staleAfterHours), or null when it is not. */
export function staleReason(h: Handoff, config: Pick<AgentSyncConfig, 'staleAfterHours'>, now: Date): string | null {
  if (isTerminal(h.status)) return null;
  const t = now.getTime();
  if (leaseExpired(h, now)) return `lease of ${h.claimed_by ?? 'its holder'} expired at ${h.lease_expires_at}`;
  if (config.staleAfterHours > 0) {
    const updated = Date.parse(h.updated_at);
    const ageHours = (t - updated) / 3_600_000;
    if (Number.isFinite(updated) && ageHours > config.staleAfterHours) {
      return `not updated for ${Math.floor(ageHours)} h (staleAfterHours is ${config.staleAfterHours})`;
    }
  }
  return null;
}

export const ATTENTION_GROUPS = ['assigned', 'shared', 'review', 'blockedStale', 'other'] as const;
export type AttentionGroup = (typeof ATTENTION_GROUPS)[number];

export const ATTENTION_GROUP_LABELS: Readonly<Record<AttentionGroup, string>> = {
  assigned: 'Assigned to me',
  shared: 'Shared with me',
  review: 'Awaiting my review',
  blockedStale: 'Blocked/Stale',
  other: 'Other open handoffs',
};

export interface AttentionContext {
  me: string;
  humans: readonly string[];
  config: Pick<AgentSyncConfig, 'staleAfterHours'>;
  now: Date;
}

/**
 * The one group an open handoff belongs to for `me`, or null for a finished one.
 * Blocked or stale work that concerns me comes first (it needs someone to act); a human sees every
 * blocked/stale handoff and every review, because a human may act on any of them (docs/contract.md §4).
 */
export function attentionGroupOf(h: Handoff, ctx: AttentionContext): AttentionGroup | null {
  if (isTerminal(h.status)) return null;
  // Snoozed work waits under Other until its snooze ends (snoozeTime.ts).
  if (isSnoozed(h, ctx.now)) return 'other';
  const human = isHuman(ctx.me, ctx.humans);
  const owner = h.to_agents.includes(ctx.me);
  const concernsMe = human || isInvolved(h, ctx.me) || h.to_agents.length === 0;
  if ((h.status === 'blocked' || staleReason(h, ctx.config, ctx.now) !== null) && concernsMe) return 'blockedStale';
  if (owner) return h.owner_mode === 'shared' || h.to_agents.length > 1 ? 'shared' : 'assigned';
  if (h.status === 'ready_for_review' && (originatorOf(h) === ctx.me || human)) return 'review';
  return 'other';
}

/**
 * Every open handoff in its attention group, in store order: the one grouping the Handoffs tree and the dashboard
 * both draw (docs/agentsync-documentation.md, "Dashboard"). Every group is present, possibly empty.
 */
export function groupByAttention(handoffs: readonly Handoff[], ctx: AttentionContext): Map<AttentionGroup, Handoff[]> {
  const buckets = new Map<AttentionGroup, Handoff[]>(ATTENTION_GROUPS.map((g) => [g, []]));
  for (const h of handoffs) {
    const g = attentionGroupOf(h, ctx);
    if (g) buckets.get(g)!.push(h);
  }
  return buckets;
}

/** Whether a group is drawn when empty: the three named groups always are, review and other only with handoffs. */
export function showsWhenEmpty(group: AttentionGroup): boolean {
  return group !== 'review' && group !== 'other';
}

/** Open handoffs assigned to `me` (an owner) that are stale and not snoozed: what the status-bar badge counts. */
export function staleAssignedTo(
  handoffs: readonly Handoff[],
  me: string,
  config: Pick<AgentSyncConfig, 'staleAfterHours'>,
  now: Date,
): { handoff: Handoff; reason: string }[] {
  const out: { handoff: Handoff; reason: string }[] = [];
  for (const h of handoffs) {
    if (!h.to_agents.includes(me) || isSnoozed(h, now)) continue;
    const reason = staleReason(h, config, now);
    if (reason) out.push({ handoff: h, reason });
  }
  return out;
}
