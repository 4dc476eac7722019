// Where a workspace's one live record lives (docs/contract.md §14): the clone's home, `<git-common-dir>/agentsync/<key>`,
// shared by every worktree of the clone, and where its configuration and committed files are (the main worktree's;
// a bare clone has none, so its configuration is its HEAD commit's, kept in the home). Found by reading files only
// (src/core/git/worktreeLocation.ts), except a bare clone's configuration, read from git once per HEAD commit.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { ensureSafeDirectory } from '../disk/safeDirectory';
import { runGit } from '../git/gitCommand';
import { headOf } from '../git/gitHead';
import { findWorktree, homeDir, mainWorkspaceOf, type WorktreeLocation } from '../git/worktreeLocation';

export interface WorkspacePlacement {
  readonly location: WorktreeLocation;
  /** `<git-common-dir>/agentsync/<key>`: the live record and every runtime file. */
  readonly home: string;
  /** The workspace's folder in the main worktree, whose committed files follow the record; null in a bare clone. */
  readonly mainWorkspace: string | null;
  /** The workspace's path in the repository, posix ('' at the top). */
  readonly inRepository: string;
  /** The configuration file: the main worktree's, or (bare clone) a function that brings HEAD's into the home. */
  readonly configFile: string | (() => string);
}

/** Where the workspace folder `root` sits in git; null outside git; `problem` when its worktree cannot be used. */
export function placeWorkspace(root: string): WorkspacePlacement | { readonly problem: string } | null {
  const found = findWorktree(root);
  if (found === null) return null;
  if (!found.ok) return { problem: found.problem };
  const location = found.location;
  const home = homeDir(location, root);
  const real = realOrResolved(root);
  const inRepository = path.relative(location.worktreeRoot, real).split(path.sep).join('/');
  const mainWorkspace = mainWorkspaceOf(location, real);
  const configFile = mainWorkspace ? path.join(mainWorkspace, '.agentsync.json') : bareConfig(location, home, inRepository);
  return { location, home, mainWorkspace, inRepository, configFile };
}

/** What a write is refused with when the clone has no configuration where §14 reads it (`config_missing`). */
export function configMissingMessage(placement: WorkspacePlacement): string {
  const { location, mainWorkspace } = placement;
  const branch = headOf(location.commonDir, location.commonDir).branch ?? 'a detached HEAD';
  const where = mainWorkspace
    ? `the main worktree ${mainWorkspace} (on ${branch}) has no .agentsync.json`
    : `the bare clone ${location.commonDir} has no .agentsync.json in its HEAD commit (${branch})`;
  return (
    `${where}, and every worktree of this clone reads its configuration there; nothing was changed. ` +
    (mainWorkspace
      ? `Check out a branch that has AgentSync in ${mainWorkspace} (\`git -C ${mainWorkspace} checkout <branch>\`), or run \`agentsync init\` there.`
      : `Commit an .agentsync.json to ${branch} (from a worktree, then \`git push\` or merge it into ${branch}).`)
  );
}

/** True when the worktree at `worktreeRoot` checks out the workspace's `.agentsync.json` (false: a branch from before AgentSync). */
export function checkoutHasAgentSync(worktreeRoot: string, inRepository: string): boolean {
  return fs.existsSync(path.join(worktreeRoot, inRepository, '.agentsync.json'));
}

/**
 * What an agent starting in a linked worktree on a branch from before AgentSync is told (docs/contract.md §14 item 5):
 * its checkout lacks `.agentsync.json` and the agent packs, while its reads and writes still use the clone's record.
 * Null where the checkout has AgentSync, outside git, and in the main worktree or a bare clone's view of it.
 */
export function checkoutWithoutAgentSync(placement: WorkspacePlacement | null): string | null {
  if (!placement) return null;
  const { location, inRepository } = placement;
  if (location.isMain || checkoutHasAgentSync(location.worktreeRoot, inRepository)) return null;
  const branch = headOf(location.gitDir, location.commonDir).branch ?? 'a detached HEAD';
  return (
    `the worktree ${location.worktreeRoot} (${location.name}, on ${branch}) is on a branch from before AgentSync: its checkout ` +
    "has no .agentsync.json and no agent packs (hooks, instructions). Its reads and writes still use the clone's one " +
    `record. Merge the default branch into ${branch}, or make the worktree with \`agentsync worktree add\` from a commit that has AgentSync.`
  );
}

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** A bare clone's configuration: HEAD's `.agentsync.json`, copied into the home when HEAD names another commit. */
function bareConfig(location: WorktreeLocation, home: string, inRepository: string): () => string {
  let file: string | null = null;
  return () => (file ??= bringHeadConfig(location, home, inRepository));
}

function bringHeadConfig(location: WorktreeLocation, home: string, inRepository: string): string {
  const file = path.join(home, 'config.json');
  const marker = path.join(home, 'config.commit');
  const commit = headOf(location.commonDir, location.commonDir).commit;
  try {
    if (!commit) return file;
    if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === commit) return file;
    const blob = runGit(location.commonDir, ['cat-file', 'blob', `${commit}:${path.posix.join(inRepository || '.', '.agentsync.json')}`]);
    ensureSafeDirectory(location.commonDir, home);
    if (blob.ok) writeFileAtomic(file, blob.stdout);
    else fs.rmSync(file, { force: true });
    writeFileAtomic(marker, `${commit}\n`);
  } catch {
    // unreadable or unwritable: the file as it is (missing means config_missing on writes)
  }
  return file;
}
