// Holders are sessions (docs/contract.md §4, "Who may act"). Two names kept apart: AgentSync's session is what
// startSession opens (state.json); the *agent's session id* is the vendor's (CLAUDE_CODE_SESSION_ID, …), and it is
// what tells two sessions of one agent apart. A claim records it with the worktree and branch it was taken in
// (`claimed_session`); the holder is the agent and that session together, since a vendor's worktree-isolated
// subagents may share their parent's session id. No zod here: the hooks (dist/hook.js) read it too.
import { ActionError } from './errors';
import { isHuman } from './agentId';

/** Where a request came from: the agent's session id (null when it gave none), its worktree and branch. */
export interface AgentSession {
  id: string | null;
  /** git's name for the worktree (`main` for the main worktree); paths stay out of the record. */
  worktree: string;
  branch: string | null;
}

/** The main worktree's name in `claimed_session.worktree`. */
export const MAIN_WORKTREE = 'main';

export const SESSION_ID_PATTERN = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** A vendor's session id as the environment gives it, or null when it is missing or not a usable id. */
export function usableSessionId(v: unknown): string | null {
  return typeof v === 'string' && SESSION_ID_PATTERN.test(v) ? v : null;
}

/** Whether a claim records its session: it names a session id or was taken in a linked worktree. */
export function recordsSession(s: AgentSession | null | undefined): s is AgentSession {
  return !!s && (s.id !== null || s.worktree !== MAIN_WORKTREE);
}

interface Held {
  handoff_id: string;
  claimed_by?: string | null;
  claimed_session?: AgentSession | null;
}

/**
 * Whether the caller is the holder of held work: the agent that claimed it and, when the claim named a session, that
 * session in that worktree. A claim taken without a session id is held by every session of its agent, as before.
 */
export function isHolder(h: Held, agent: string, caller: AgentSession | null | undefined): boolean {
  if (!h.claimed_by) return true;
  if (h.claimed_by !== agent) return false;
  const held = h.claimed_session;
  if (!held || held.id === null) return true;
  return !!caller && caller.id === held.id && caller.worktree === held.worktree;
}

/** Where a claim was taken, when it recorded it: ` (session s, worktree w, branch b)`; '' when it recorded none. */
export function sessionWhere(s: AgentSession | null | undefined): string {
  if (!s) return '';
  const parts = [s.id ? `session ${s.id}` : null, `worktree ${s.worktree}`, s.branch ? `branch ${s.branch}` : null].filter(Boolean);
  return ` (${parts.join(', ')})`;
}

/** How a held claim reads in messages: `claude (session abc, worktree w, branch b)`. */
export function holderText(h: Held): string {
  return `${h.claimed_by ?? 'another agent'}${sessionWhere(h.claimed_session)}`;
}

/**
 * Complete, block, release and heartbeat of held work belong to its holder; another session of the same agent, or
 * that agent without a session id, is refused `already_claimed` with who holds it. Humans may act on anything.
 */
export function assertHolder(
  h: Held,
  agent: string,
  caller: AgentSession | null | undefined,
  humans: readonly string[],
  verb: string,
): void {
  if (isHuman(agent, humans) || isHolder(h, agent, caller)) return;
  const sameAgent = h.claimed_by === agent;
  const why = sameAgent
    ? caller?.id
      ? `another session of ${agent} holds it`
      : `it is held by one session of ${agent}, and this request names no session (give "session", or run it where the agent's session id is set)`
    : `it is held by ${h.claimed_by}`;
  throw new ActionError(
    'already_claimed',
    `${agent} may not ${verb} ${h.handoff_id}: ${why}. Held by ${holderText(h)}. Pick other work, or ask its holder to release it.`,
    { handoff_id: h.handoff_id, claimedBy: h.claimed_by ?? null, claimedSession: h.claimed_session ?? null },
  );
}
