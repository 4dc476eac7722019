// What "stale" means (DESIGN §6): an open handoff whose lease expired, or that nobody updated for staleAfterHours.
import { isTerminal, type Handoff } from './handoffSchema';

export type StaleReason = 'lease_expired' | 'not_updated';

export function staleReason(h: Handoff, staleAfterHours: number, now: Date): StaleReason | null {
  if (isTerminal(h.status)) return null;
  if (h.status === 'in_progress' && h.lease_expires_at && Date.parse(h.lease_expires_at) <= now.getTime()) return 'lease_expired';
  // staleAfterHours 0 means "never stale by age".
  if (staleAfterHours > 0 && now.getTime() - Date.parse(h.updated_at) > staleAfterHours * 3_600_000) return 'not_updated';
  return null;
}

export function isStale(h: Handoff, staleAfterHours: number, now: Date): boolean {
  return staleReason(h, staleAfterHours, now) !== null;
}

/** Open handoffs assigned to `agent` that are stale: what the status-bar badge counts. */
export function staleAssignedTo(handoffs: readonly Handoff[], agent: string, staleAfterHours: number, now: Date): Handoff[] {
  return handoffs.filter((h) => h.to_agents.includes(agent) && isStale(h, staleAfterHours, now));
}
