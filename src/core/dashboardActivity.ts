// The dashboard's activity panel (docs/agentsync-documentation.md, "The dashboard"): the active sessions and the
// last health from .agentsync/state.json, and the leases of in-progress handoffs. state.json is derived, so anything
// unexpected in it is left out rather than trusted.
import { displayAgent } from './agentId';
import { leaseExpired } from './handoffAttention';
import type { Handoff } from './handoffSchema';
import { HEALTH_CHECKS } from './sessions/healthChecks';
import { activeSessionsOf, lastSessionOf } from './sessions/sessionState';

export interface DashboardSession {
  agent: string;
  goal: string;
  startedAt: string;
  handoffId: string | null;
  mine: boolean;
}

export interface DashboardLease {
  handoffId: string;
  holder: string;
  until: string;
  expired: boolean;
  mine: boolean;
}

export interface DashboardHealth {
  /** When and by whom the checks last ran (the last End Session), if known. */
  at: string | null;
  agent: string | null;
  checks: { label: string; status: string; output: string }[];
}

export interface FolderActivity {
  sessions: DashboardSession[];
  leases: DashboardLease[];
  health: DashboardHealth | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function healthOf(state: Record<string, unknown>): DashboardHealth | null {
  const raw = state.health;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const checks = HEALTH_CHECKS.map(({ label }) => {
    const r = (raw as Record<string, unknown>)[label] as { status?: unknown; output?: unknown } | undefined;
    return { label, status: str(r?.status) || 'Unknown', output: str(r?.output).slice(-2_000) };
  });
  const last = lastSessionOf(state);
  return { at: str(last?.endedAt) || str(last?.date) || null, agent: last?.agent ? displayAgent(str(last.agent)) : null, checks };
}

export function folderActivity(handoffs: readonly Handoff[], state: Record<string, unknown>, me: string, now: Date): FolderActivity {
  const sessions = [...activeSessionsOf(state).values()]
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
    .map((s) => ({ agent: displayAgent(s.agent), goal: s.goal, startedAt: s.startedAt, handoffId: s.handoffId, mine: s.agent === me }));
  const leases = handoffs
    .filter((h) => h.status === 'in_progress' && h.claimed_by && h.lease_expires_at)
    .map((h) => ({
      handoffId: h.handoff_id,
      holder: displayAgent(h.claimed_by!),
      until: h.lease_expires_at!,
      expired: leaseExpired(h, now),
      mine: h.claimed_by === me,
    }));
  return { sessions, leases, health: healthOf(state) };
}
