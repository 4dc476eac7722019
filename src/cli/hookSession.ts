// The session an agent's hook runs for (docs/contract.md §4, "Who may act"), shared by dist/hook.js (hookMain.ts) and
// the CLI's hook verb. Node built-ins only, like hookMain.ts.
import { usableSessionId, type AgentSession } from '../core/domain/agentSession';
import { placeOf } from '../core/git/worktreePlace';
import { sessionIdFromEnv } from '../core/hooks/vendors';
import type { HookInput, Vendor } from '../core/hooks/vendors/vendor';

/**
 * The hook input's session id, else the vendor's variable in the environment, in the worktree of the workspace: the
 * radar warns it about the claims of every other session, and it renews and is stopped for its own claims only.
 */
export function hookSession(vendor: Vendor, input: HookInput, agent: string, root: string): AgentSession {
  const id = usableSessionId(vendor.sessionId(input)) ?? sessionIdFromEnv(process.env, agent);
  return { id, ...placeOf(root) };
}
