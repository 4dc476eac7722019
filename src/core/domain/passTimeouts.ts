// When passed-over work times out (docs/contract.md §6; docs/agentsync-documentation.md, "Timeouts"): a receiver whose lease
// lapses is E010 SUBAGENT_TIMEOUT, work nobody claims within its timeout_ms is E022 RETURN_TIMEOUT. Pure functions
// over the records, so the sweep (actions/timeOutPasses.ts) and the cheap "is anything due?" check agree.
import type { AgentSyncConfig } from './configSchema';
import type { Handoff } from './handoffSchema';
import { resolvePassOverPolicy } from './passOverPolicy';

export type TimeoutCode = 'SUBAGENT_TIMEOUT' | 'RETURN_TIMEOUT';

export interface DueTimeout {
  handoff: Handoff;
  code: TimeoutCode;
  /** The lease's end (E010), or when the work last became queued (E022). */
  since: string;
  timeoutMs: number;
}

/** A passed handoff's timeout: the one stored when it was passed, else its pair's; null when a broken config hides it. */
export function passTimeoutMs(config: AgentSyncConfig, h: Handoff): number | null {
  if (h.policy?.timeout_ms) return h.policy.timeout_ms;
  try {
    return resolvePassOverPolicy(config, h.return_to ?? h.from_agent, h.to_agents[0] ?? '').timeout_ms;
  } catch {
    return null; // E030: AgentSync does not guess a timeout from a broken passOver section
  }
}

/** When a queued handoff last became queued (a release puts work back in the queue, and its wait starts again). */
function queuedSince(h: Handoff): string {
  for (let i = h.state_history.length - 1; i >= 0; i--) if (h.state_history[i].status === 'queued') return h.state_history[i].timestamp;
  return h.created_at;
}

function candidate(h: Handoff): boolean {
  return !!h.return_to && (h.status === 'queued' || h.status === 'in_progress');
}

/** Passed handoffs whose time is up at `now`, oldest first. */
export function dueTimeouts(handoffs: readonly Handoff[], config: AgentSyncConfig, now: Date): DueTimeout[] {
  const t = now.getTime();
  const due: DueTimeout[] = [];
  let waiting: Set<string> | null = null;
  for (const h of handoffs) {
    if (!candidate(h)) continue;
    const timeoutMs = passTimeoutMs(config, h);
    if (timeoutMs === null) continue;
    if (h.status === 'queued') {
      const since = queuedSince(h);
      if (Date.parse(since) + timeoutMs <= t) due.push({ handoff: h, code: 'RETURN_TIMEOUT', since, timeoutMs });
      continue;
    }
    if (!h.lease_expires_at || Date.parse(h.lease_expires_at) > t) continue;
    // A holder that passed part of the work on is waiting, not gone: its subagent's own timeout covers the wait.
    waiting ??= passesInFlight(handoffs);
    if (h.uid && waiting.has(h.uid)) continue;
    due.push({ handoff: h, code: 'SUBAGENT_TIMEOUT', since: h.lease_expires_at, timeoutMs });
  }
  return due.sort((a, b) => Date.parse(a.since) - Date.parse(b.since));
}

/** uids of handoffs with a pass of their own still out (queued, in progress or blocked at the receiver). */
export function passesInFlight(handoffs: readonly Handoff[]): Set<string> {
  const out = new Set<string>();
  for (const c of handoffs) {
    if (c.parent_uid && c.return_to && (c.status === 'queued' || c.status === 'in_progress' || c.status === 'blocked'))
      out.add(c.parent_uid);
  }
  return out;
}
