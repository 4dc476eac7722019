// How a failed fetch or push of the shared ref is answered (docs/contract.md §13): credentials it cannot get without a
// prompt (remote_auth), a refusal by the server (remote_refused, with its words), else unreachable; each says what to do.
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
