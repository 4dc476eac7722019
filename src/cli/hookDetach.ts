// The session-end hook's work, in a process of its own (docs/agentsync-documentation.md, "Hook packs"). A vendor gives
// its session-end hooks little time (Claude Code 1.5 s unless told otherwise, Codex 3 s) and kills what runs longer,
// while handing a pass back writes the store (and, with sync, pushes). So the hook starts the same command again,
// detached (its own process group, which the agent's exit does not end), hands it its input, and answers at once.
// Node built-ins only, like hookMain.ts; child_process is loaded only here (disk/childProcess.ts), so the other hooks,
// which run at every tool call, do not pay for it.
import { childProcess } from '../core/disk/childProcess';
import type { HookEvent } from '../core/hooks/vendors/vendor';

/** Set in the detached process, which does the work itself. */
export const DETACHED_ENV = 'AGENTSYNC_HOOK_DETACHED';

/** How long the detached process gives its network step (it answers no agent, so it is not held to the pack's limit). */
export const DETACHED_NETWORK_MS = 25_000;

export function isDetachedRun(env: NodeJS.ProcessEnv): boolean {
  return env[DETACHED_ENV] === '1';
}

/**
 * For a session-end hook in the agent's own process: starts the detached run with `input` on its standard input and
 * returns true (the caller ends); false for any other event, or in the detached run itself.
 */
export function detachSessionEnd(event: HookEvent, input: string): boolean {
  if (event !== 'session-end' || isDetachedRun(process.env)) return false;
  try {
    const child = childProcess().spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, [DETACHED_ENV]: '1' },
    });
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.unref();
    return true;
  } catch {
    return false; // the work is then done here, within whatever time the agent gives
  }
}
