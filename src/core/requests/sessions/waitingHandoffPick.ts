// Which waiting handoff a zero-touch Start Session claims for an agent (docs/agentsync-documentation.md,
// "Zero-touch sessions"): queued work the agent owns, its own work before work it shares, then the most urgent,
// then the oldest. The editor tries them in this order, so a claim lost to a faster agent falls to the next.
import type { Handoff } from '../../domain/handoffSchema';

const PRIORITY_RANK: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };

/** Queued handoffs `agent` owns (to_agents), best first. */
export function waitingHandoffsFor(handoffs: readonly Handoff[], agent: string): Handoff[] {
  const waiting = handoffs.filter((h) => h.status === 'queued' && h.to_agents.includes(agent));
  const alone = (h: Handoff) => (h.to_agents.length === 1 ? 0 : 1);
  const rank = (h: Handoff) => PRIORITY_RANK[h.priority ?? 'medium'];
  return waiting.sort(
    (a, b) =>
      alone(a) - alone(b) ||
      rank(a) - rank(b) ||
      Date.parse(a.created_at) - Date.parse(b.created_at) ||
      (a.handoff_id < b.handoff_id ? -1 : a.handoff_id > b.handoff_id ? 1 : 0),
  );
}
