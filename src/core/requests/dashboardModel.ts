// What the editor's dashboard draws (docs/agentsync-documentation.md, "The dashboard"), per folder: the cards
// (domain/dashboardCards.ts, their buttons from the action catalog), the active sessions and the last health from .agentsync/state.json, and the leases of
// in-progress handoffs. state.json is derived, so anything unexpected in it is left out rather than trusted.
import { sessionWhere } from '../domain/agentSession';
import { displayAgent } from '../domain/agentId';
import type { AgentSyncConfig } from '../domain/configSchema';
import { dashboardGroups, type DashboardGroup } from '../domain/dashboardCards';
import { leaseExpired } from '../domain/handoffAttention';
import type { Handoff } from '../domain/handoffSchema';
import { dashboardButtonTexts, dashboardMovesFor, type ButtonText } from './catalog/dashboardMoves';
import { HEALTH_CHECKS } from './sessions/healthChecks';
import { activeSessionsOf, lastSessionOf } from './sessions/sessionState';
import { byCodeUnit } from '../domain/textOrder';

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

export interface DashboardFolder {
  root: string;
  name: string;
  initialized: boolean;
  problem: string | null;
  groups: DashboardGroup[];
  sessions: DashboardSession[];
  leases: DashboardLease[];
  health: DashboardHealth | null;
}

export interface DashboardModel {
  /** The agent this window acts as, for display. */
  me: string;
  identityProblem: string | null;
  trusted: boolean;
  folders: DashboardFolder[];
  /** The label and hint of each button a card may have, by move name (the page has no list of its own). */
  buttons: Record<string, ButtonText>;
}

export interface DashboardFolderInput {
  root: string;
  name: string;
  initialized: boolean;
  problem: string | null;
  handoffs: readonly Handoff[];
  config: AgentSyncConfig;
  /** .agentsync/state.json as read. */
  state: Record<string, unknown>;
}

export interface DashboardInput {
  me: string;
  identityProblem: string | null;
  trusted: boolean;
  now: Date;
  folders: readonly DashboardFolderInput[];
  /** Refusal texts by cardKey. */
  refusals: ReadonlyMap<string, string>;
}

interface FolderActivity {
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

function folderActivity(handoffs: readonly Handoff[], state: Record<string, unknown>, me: string, now: Date): FolderActivity {
  const sessions = [...activeSessionsOf(state).values()]
    .sort((a, b) => byCodeUnit(a.startedAt, b.startedAt))
    .map((s) => ({ agent: displayAgent(s.agent), goal: s.goal, startedAt: s.startedAt, handoffId: s.handoffId, mine: s.agent === me }));
  const leases = handoffs
    .filter((h) => h.status === 'in_progress' && h.claimed_by && h.lease_expires_at)
    .map((h) => ({
      handoffId: h.handoff_id,
      holder: displayAgent(h.claimed_by!) + sessionWhere(h.claimed_session),
      until: h.lease_expires_at!,
      expired: leaseExpired(h, now),
      mine: h.claimed_by === me,
    }));
  return { sessions, leases, health: healthOf(state) };
}

function folderModel(f: DashboardFolderInput, input: DashboardInput): DashboardFolder {
  const { me, now } = input;
  const viewer = { me, sessionHandoff: activeSessionsOf(f.state).get(me)?.handoffId ?? null };
  const actionsFor = (h: Handoff) => dashboardMovesFor(h, viewer);
  const groups = f.initialized
    ? dashboardGroups({ root: f.root, handoffs: f.handoffs, config: f.config, me, now, actionsFor, refusals: input.refusals })
    : [];
  return {
    root: f.root,
    name: f.name,
    initialized: f.initialized,
    problem: f.problem,
    groups,
    ...folderActivity(f.handoffs, f.state, me, now),
  };
}

export function dashboardModel(input: DashboardInput): DashboardModel {
  return {
    me: displayAgent(input.me),
    identityProblem: input.identityProblem,
    trusted: input.trusted,
    folders: input.folders.map((f) => folderModel(f, input)),
    buttons: dashboardButtonTexts(),
  };
}
