// Session fields of .agentsync/state.json. AgentSync 0.3 kept one `activeSession`; several agents may now work at
// once, so `activeSessions` maps agent → session, and `activeSession` (0.3's field) is the most recently started one;
// `agentSessions` keeps the agent's session id per worktree, so two sessions of one agent are told apart.
import { normalizeAgentId } from '../../domain/agentId';
import { byCodeUnit } from '../../domain/textOrder';

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
  const list = [...sessions.values()].sort((a, b) => byCodeUnit(a.startedAt, b.startedAt));
  return {
    sessionActive: list.length > 0,
    activeSession: list.length ? list[list.length - 1] : null,
    activeSessions: Object.fromEntries(list.map((s) => [s.agent, s])),
  };
}

export function lastSessionOf(state: Record<string, unknown>): LastSessionRecord | null {
  return isObject(state.lastSession) ? (state.lastSession as unknown as LastSessionRecord) : null;
}

/**
 * An agent's session started in a worktree (state.json `agentSessions`). `activeSessions` keeps one session per agent,
 * but two sessions of one agent in two worktrees both live (docs/contract.md §14 item 4a), so their ids are kept here,
 * the latest one per (agent, worktree): a later start in the same worktree supersedes the earlier, as a session that
 * ended without saying so would otherwise stay forever.
 */
export interface WorktreeSession {
  agent: string;
  id: string;
  worktree: string;
  startedAt: string;
}

/** The agent sessions in a state.json, those of `activeSessions` (written before `agentSessions` was) included. */
export function worktreeSessionsOf(state: Record<string, unknown>): WorktreeSession[] {
  const out: WorktreeSession[] = [];
  const add = (w: WorktreeSession) => {
    if (!out.some((o) => o.agent === w.agent && o.worktree === w.worktree)) out.push(w);
  };
  for (const v of Array.isArray(state.agentSessions) ? (state.agentSessions as unknown[]) : []) {
    if (!isObject(v)) continue;
    const agent = normalizeAgentId(str(v.agent) ?? '');
    const id = str(v.id);
    const worktree = str(v.worktree);
    if (agent && id && worktree) add({ agent, id, worktree, startedAt: str(v.startedAt) ?? '' });
  }
  for (const s of activeSessionsOf(state).values()) if (s.agentSession) add({ agent: s.agent, ...s.agentSession, startedAt: s.startedAt });
  return out;
}

/** `list` with `started` in place of the earlier session of its agent in its worktree. */
export function withWorktreeSession(list: readonly WorktreeSession[], started: WorktreeSession): WorktreeSession[] {
  return [...list.filter((w) => w.agent !== started.agent || w.worktree !== started.worktree), started];
}

/**
 * `list` without the ended session: its id in its worktree; with no id, every session of `agent` in that worktree; from
 * a surface that knows no worktree (null), every session of `agent`, as `activeSessions` drops the agent's.
 */
export function withoutWorktreeSession(
  list: readonly WorktreeSession[],
  agent: string,
  ended: { id: string | null; worktree: string } | null,
): WorktreeSession[] {
  if (!ended) return list.filter((w) => w.agent !== agent);
  return list.filter((w) => w.agent !== agent || w.worktree !== ended.worktree || (ended.id !== null && w.id !== ended.id));
}

/** The agent's session ids of `agent`'s live sessions started in `worktree` (state.json). */
export function liveSessionIds(state: Record<string, unknown>, agent: string, worktree: string): string[] {
  return worktreeSessionsOf(state)
    .filter((w) => w.agent === agent && w.worktree === worktree)
    .map((w) => w.id);
}
