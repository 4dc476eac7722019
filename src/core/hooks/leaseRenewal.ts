// Which of an agent's leases the post-tool-use hook renews (docs/agentsync-documentation.md, "Hook packs"): only those
// past half their time, so most tool calls write nothing. Reads the store text without schema validation: it only
// decides whether to send heartbeats, and every heartbeat then goes through the dispatcher under the lock.
import { recordsContaining } from './storeScan';
import { hookView } from './hookReaders';
import { isHolder, type AgentSession } from '../domain/agentSession';
import { sessionFieldOf } from './conflictRadar';

export interface LeaseFields {
  handoff_id?: unknown;
  status?: unknown;
  claimed_by?: unknown;
  claimed_at?: unknown;
  claimed_session?: unknown;
  updated_at?: unknown;
  lease_expires_at?: unknown;
}

/**
 * Ids of in-progress handoffs `agent` holds in `session` (docs/contract.md §4: another session's claims are its own
 * to renew) whose lease is at least half used. The lease's start is the later of
 * claimed_at and updated_at (a heartbeat updates the record), so an unrelated update only makes the renewal earlier.
 */
export function leasesDue(store: Buffer | string, agent: string, nowMs: number, session: AgentSession | null = null): string[] {
  // Only the records that name the agent as holder are parsed (as AgentSync writes the file: `"claimed_by": "<agent>"`).
  const due: string[] = [];
  for (const h of hookView('leaseRenewal', recordsContaining(store, [`"claimed_by": ${JSON.stringify(agent)}`])) as LeaseFields[]) {
    if (!h || h.status !== 'in_progress' || h.claimed_by !== agent || typeof h.handoff_id !== 'string') continue;
    const held = { handoff_id: h.handoff_id, claimed_by: agent, claimed_session: sessionFieldOf(h.claimed_session) };
    if (isHolder(held, agent, session) && leaseHalfUsed(h, nowMs) === true) due.push(h.handoff_id);
  }
  return due;
}

/**
 * Whether a lease is at least half used (null: the record has no lease). The one rule both the hook and, in sync mode,
 * the heartbeat action use (docs/contract.md §13: a renewal reaches the remote only past half).
 */
export function leaseHalfUsed(h: LeaseFields, nowMs: number): boolean | null {
  const until = typeof h.lease_expires_at === 'string' ? Date.parse(h.lease_expires_at) : NaN;
  if (!Number.isFinite(until)) return null;
  const starts = [h.claimed_at, h.updated_at].map((t) => (typeof t === 'string' ? Date.parse(t) : NaN)).filter(Number.isFinite);
  const start = starts.length ? Math.min(Math.max(...starts), until) : until;
  return nowMs >= start + (until - start) / 2;
}
