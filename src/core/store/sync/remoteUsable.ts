// What sync mode needs of the user's repository before it runs a fetch or push (docs/contract.md §13): a git
// repository, the configured remote, and a sync.ref that is no branch a worktree has checked out.
import * as path from 'node:path';
import { ActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { runGitPlumbing as localGit } from '../../git/gitCommand';

/** The clone's common git folder; else `invalid_config`, saying what to set up. */
export function assertRemoteUsable(root: string, config: SyncConfig): string {
  const inside = localGit(root, ['rev-parse', '--git-common-dir']);
  if (!inside.ok) {
    throw new ActionError(
      'invalid_config',
      '.agentsync.json turns sync on, but this workspace is not inside a git repository; clone the repository (or remove "sync"). Nothing was changed.',
    );
  }
  const url = localGit(root, ['config', '--get', `remote.${config.remote}.url`]);
  if (!url.ok || !url.stdout.trim()) {
    throw new ActionError(
      'invalid_config',
      `.agentsync.json: sync.remote is "${config.remote}", but this clone has no such git remote. Add it ` +
        `(git remote add ${config.remote} <url>) or name another in sync.remote. Nothing was changed.`,
      { remote: config.remote },
    );
  }
  assertNotCheckedOut(root, config);
  return path.resolve(root, inside.stdout.trim());
}

/**
 * sync.ref naming a branch any worktree of this clone has checked out, or its upstream, would make the shared state's commits the
 * code branch's: `invalid_config`. Costs a git process only when sync.ref is a branch (refs/heads/...).
 */
function assertNotCheckedOut(root: string, config: SyncConfig): void {
  const { ref, remote } = config;
  if (!ref.startsWith('refs/heads/')) return;
  // %(worktreepath) names the worktree a branch is checked out in, any worktree of the clone (docs/contract.md §14).
  const r = localGit(root, [
    'for-each-ref',
    '--format=%(worktreepath)%00%(refname)%00%(upstream:remotename)%00%(upstream:remoteref)',
    'refs/heads',
  ]);
  for (const line of r.stdout.split('\n')) {
    const [worktree, branch, upstreamRemote, upstreamRef] = line.split('\0');
    if (!worktree) continue;
    const upstream = upstreamRemote === remote && upstreamRef === ref;
    if (branch !== ref && !upstream) continue;
    throw new ActionError(
      'invalid_config',
      `.agentsync.json: sync.ref is "${ref}", the branch the worktree ${worktree} has checked out${upstream ? ' (as its upstream)' : ''}: ` +
        "AgentSync's shared-state commits would replace that branch's files. Give the shared state a ref of its own " +
        '(sync.ref, e.g. the default "refs/agentsync/state", or remove sync.ref). Nothing was changed.',
      { sync: { remote, ref } },
    );
  }
}
