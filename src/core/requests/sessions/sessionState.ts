// Session fields of .agentsync/state.json. AgentSync 0.3 kept one `activeSession`; several agents may now work at
// once, so `activeSessions` maps agent → session, and `activeSession` (0.3's field) is the most recently started one.
import { normalizeAgentId } from '../../domain/agentId';

export interface SessionRecord {
  /** A ULID. */
  id: string;
  agent: string;
  goal: string;
  startedAt: string;
  /** The handoff the session was started from (claimed by this agent), if any. */
  handoffId: string | null;
  handoffUid: string | null;
  /** The request that started it, so a replayed request is recognised. */
  request_id: string | null;
  /**
   * The agent's session id (its vendor's, not this record's `id`) and the worktree it runs in, when the start named
   * one: what a drop-zone request of that agent in that worktree is taken to come from (docs/contract.md §4).
   */
  agentSession?: { id: string; worktree: string } | null;
}

export interface LastSessionRecord {
  id: string | null;
  agent: string;
  date: string;
  summary: string;
  branch: string;
  commit: string;
  startedAt: string | null;
  endedAt: string;
  nextWork: string | null;
  handoffId: string | null;
  no_handoff_reason: string | null;
  request_id: string | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toSession(v: unknown, agentKey?: string): SessionRecord | null {
  if (!isObject(v)) return null;
  const agent = normalizeAgentId(str(v.agent) ?? agentKey ?? '');
  if (!agent) return null;
  return {
    id: str(v.id) ?? '',
    agent,
    goal: str(v.goal) ?? '',
    startedAt: str(v.startedAt) ?? '',
    handoffId: str(v.handoffId),
    handoffUid: str(v.handoffUid),
    request_id: str(v.request_id),
    ...(isObject(v.agentSession) && typeof v.agentSession.id === 'string' && typeof v.agentSession.worktree === 'string'
      ? { agentSession: { id: v.agentSession.id, worktree: v.agentSession.worktree } }
      : {}),
  };
}

/** The active sessions in a state.json, including a 0.3 file's single `activeSession`. */
export function activeSessionsOf(state: Record<string, unknown>): Map<string, SessionRecord> {
  const out = new Map<string, SessionRecord>();
  if (isObject(state.activeSessions)) {
    for (const [key, v] of Object.entries(state.activeSessions)) {
      const s = toSession(v, key);
      if (s) out.set(s.agent, s);
    }
  } else if (state.sessionActive === true) {
    const legacy = toSession(state.activeSession);
    if (legacy) out.set(legacy.agent, legacy);
  }
  return out;
}

/** The state.json fields that describe the active sessions. */
export function sessionFields(sessions: ReadonlyMap<string, SessionRecord>): Record<string, unknown> {
  const list = [...sessions.values()].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  return {
    sessionActive: list.length > 0,
    activeSession: list.length ? list[list.length - 1] : null,
    activeSessions: Object.fromEntries(list.map((s) => [s.agent, s])),
  };
}

export function lastSessionOf(state: Record<string, unknown>): LastSessionRecord | null {
  return isObject(state.lastSession) ? (state.lastSession as unknown as LastSessionRecord) : null;
}

/** The agent's session ids of `agent`'s live sessions started in `worktree` (state.json). */
export function liveSessionIds(state: Record<string, unknown>, agent: string, worktree: string): string[] {
  const s = activeSessionsOf(state).get(agent);
  return s?.agentSession && s.agentSession.worktree === worktree ? [s.agentSession.id] : [];
}
