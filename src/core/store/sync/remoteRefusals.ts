// How a failed fetch or push of the shared ref is answered (docs/contract.md §13): credentials it cannot get without a
// prompt (remote_auth), a refusal by the server (remote_refused, with its words), else unreachable; each says what to do;
// and how a push's refused line is read (the ref moved, or the server could not update it).
import { ActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { classifyRemoteFailure, gitOutputSummary, type RemoteRun } from '../../git/gitRemote';

/** The refusal for a fetch or push (`what`: "fetch from", "push to") that git could not do. */
export function remoteFailure(config: SyncConfig, what: string, run: RemoteRun): ActionError {
  const kind = classifyRemoteFailure(run);
  const said = gitOutputSummary(run);
  const { remote, ref } = config;
  const sync = { remote, ref };
  if (kind === 'auth') {
    return new ActionError(
      'remote_auth',
      `The git remote "${remote}" wants credentials AgentSync cannot get without a prompt (git said: ${said}). Set up a credential ` +
        'helper, an ssh agent or a token for this remote (a plain `git fetch` must work without asking), then retry. Nothing was changed.',
      { sync, detail: said },
    );
  }
  if (kind === 'refused') return refused(config, said);
  return new ActionError(
    'remote_unreachable',
    `Could not ${what} the git remote "${remote}" (git said: ${said}). Nothing was changed. Retry when the remote answers. ` +
      'A read without --fresh (or "fresh": true) answers from this clone\'s last synced state; for writes, ' +
      '"sync": { "offline": "local" } in .agentsync.json works locally and confirms later with `agentsync sync`.',
    { sync, detail: said },
  );
}

/** remote_refused: the server refused the update of the ref, in its own words. */
export function refused(config: SyncConfig, said: string): ActionError {
  return new ActionError(
    'remote_refused',
    `The git remote "${config.remote}" refused the update of ${config.ref} (${said}). Nothing was changed. If the host protects ` +
      `or forbids this ref, allow pushes to it, or set sync.ref to a branch this machine may push (e.g. "refs/heads/agentsync-state").`,
    { sync: { remote: config.remote, ref: config.ref }, detail: said },
  );
}

/**
 * `moved`: the compare-and-swap failed. `seen`: git saw the ref at another commit than the expected one (the lease was
 * stale, or the push was not a fast-forward); otherwise the server failed to update the ref (another push won the
 * race between its advertisement and its update, or the ref cannot be updated at all: a fetch tells which).
 */
export type PushOutcome =
  | { kind: 'ok' }
  | { kind: 'moved'; detail: string; seen: boolean }
  /** The conversation broke after it started (the reply lost, the time ran out): the remote may have taken it. */
  | { kind: 'unknown'; error: ActionError };

/** git's words for a push refused because the ref is not what the pusher expected: stale lease, not a fast-forward. */
const SEEN_MOVED = /stale info|fetch first|non-fast-forward/i;
/** The server's words for a ref update that failed after the advertisement: the ref moved meanwhile, or is stuck. */
const UPDATE_FAILED = /cannot lock|failed to (update|lock)|but expected|is at /i;

/** How a push's refused line ("[rejected] (stale info)", "[remote rejected] (failed to update ref)") is taken. */
export function pushRefusal(summary: string): { moved: boolean; seen: boolean } {
  if (SEEN_MOVED.test(summary)) return { moved: true, seen: true };
  return { moved: UPDATE_FAILED.test(summary), seen: false };
}
