// A request's session (docs/contract.md §4, "Who may act"): the agent's session id and where the request came from.
// The id is, in order: the request's `session` parameter; the vendor's variable in the caller's environment (read by
// the surface, hooks/vendors/index.ts sessionIdFromEnv); for a drop-zone request, the only live session of that agent
// in the worktree the file was written in (state.json).
import { MAIN_WORKTREE, type AgentSession } from '../domain/agentSession';
import { placeOf } from '../git/worktreePlace';
import { sessionIdFromEnv } from '../hooks/vendors';
import { readStateFile } from '../store/stateFile';
import { liveSessionIds } from './sessions/sessionState';

/** What a surface knows of its caller: its worktree and branch, and the agent's session id its environment gives. */
export interface RequestCaller {
  worktree: string;
  branch: string | null;
  /**
   * The session id of `agent` when the request names none: the vendor's variable in the caller's environment (CLI,
   * MCP), or the only live session of that agent in this worktree (drop zone); null when there is none.
   */
  sessionOf(agent: string): string | null;
}

/** The request's session, or undefined when neither the request nor its surface says anything about one. */
export function requestSession(params: Record<string, unknown>, caller: RequestCaller | undefined): AgentSession | undefined {
  const named = typeof params.session === 'string' ? params.session : null;
  if (!caller) return named === null ? undefined : { id: named, worktree: MAIN_WORKTREE, branch: null };
  const id = named ?? (agentOf(params) === null ? null : caller.sessionOf(agentOf(params)!));
  return { id, worktree: caller.worktree, branch: caller.branch };
}

/** Who sends the request: its `agent`, else the sender a createHandoff names (`handoff.from_agent`, as the CLI's `create --from`). */
function agentOf(params: Record<string, unknown>): string | null {
  if (typeof params.agent === 'string') return params.agent;
  const h = params.handoff as { from_agent?: unknown } | null | undefined;
  return h && typeof h === 'object' && typeof h.from_agent === 'string' ? h.from_agent : null;
}

/** A process's caller (the CLI, the MCP server): the worktree of its workspace, the agent's session id from `env`. */
export function processCaller(folder: string, env: NodeJS.ProcessEnv): RequestCaller {
  return { ...placeOf(folder), sessionOf: (agent) => sessionIdFromEnv(env, agent) };
}

/**
 * A drop zone's caller: the worktree its folder is in. A request file carries no environment, so a request naming no
 * session is taken to come from the only live session of its agent started in that worktree (state.json), if any.
 */
export function dropZoneCaller(folder: string, stateFile: string): RequestCaller {
  const place = placeOf(folder);
  return {
    ...place,
    sessionOf: (agent) => {
      const ids = liveSessionIds(readStateFile(stateFile), agent, place.worktree);
      return ids.length === 1 ? ids[0] : null;
    },
  };
}
