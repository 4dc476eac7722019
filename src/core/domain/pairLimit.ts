// The pair limit (docs/contract.md §6, "Loops across the graph"): two agents handing work to each other faster than a
// human can follow is a storm, not a workflow. Past `max_handoffs_per_pair_per_hour` handoffs between one pair (either
// way) within the window, with no human action on any of them since, the next one is made `blocked` with the count,
// and only a human may unblock it; a human acting on any of the pair's handoffs starts the count again.
import { isHuman } from './agentId';
import { isReturnedWork } from './lifecycle';
import { PAIR_LIMIT } from './passOverPolicy';
import type { Handoff } from './handoffSchema';

/** How a hold's reason starts, so the hold is known again from its history (isPairLimitHold). */
export const PAIR_LIMIT_MARK = 'pair limit:';

/** Work handed between `a` and `b`, either way: not a return, which only carries work back. */
function betweenPair(h: Handoff, a: string, b: string): boolean {
  if (isReturnedWork(h) || h.reason === 'return') return false;
  return (h.from_agent === a && h.to_agents.includes(b)) || (h.from_agent === b && h.to_agents.includes(a));
}

/** How many handoffs between `a` and `b` count now: made within the window and after the last human action on any of them. */
export function pairCount(handoffs: readonly Handoff[], a: string, b: string, now: Date, humans: readonly string[]): number {
  const pair = handoffs.filter((h) => betweenPair(h, a, b));
  let since = now.getTime() - PAIR_LIMIT.windowMs;
  for (const h of pair) for (const e of h.state_history) if (isHuman(e.agent, humans)) since = Math.max(since, Date.parse(e.timestamp));
  return pair.filter((h) => Date.parse(h.created_at) > since).length;
}

/**
 * Why new work from `from` to `to` waits for a human (the reason of its `blocked` entry), or null when it may go ahead.
 * A human's own request, or work to or from a human, is never held.
 */
export function pairHold(
  handoffs: readonly Handoff[],
  from: string,
  to: string,
  ctx: { actor: string; now: Date; humans: readonly string[] },
  limit: { limit: number; source: string },
): string | null {
  if (from === to || [ctx.actor, from, to].some((a) => isHuman(a, ctx.humans))) return null;
  const count = pairCount(handoffs, from, to, ctx.now, ctx.humans);
  if (count < limit.limit) return null;
  return (
    `${PAIR_LIMIT_MARK} ${count} handoffs between ${from} and ${to} in the last hour with no human action on them ` +
    `(${limit.source} is ${limit.limit}); a human must unblock this one before it can be claimed, and any human action ` +
    `on their handoffs starts the count again`
  );
}

/** Whether `h` is blocked by the pair limit: the entry that blocked it (the first of its current blocked run) says so. */
export function isPairLimitHold(h: Handoff): boolean {
  if (h.status !== 'blocked') return false;
  let i = h.state_history.length - 1;
  while (i > 0 && h.state_history[i - 1].status === 'blocked') i--;
  return i >= 0 && h.state_history[i].status === 'blocked' && !!h.state_history[i].reason?.startsWith(PAIR_LIMIT_MARK);
}
