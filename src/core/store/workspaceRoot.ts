// Which AgentSync workspace a folder belongs to, found the way git finds .git (docs/contract.md §8, `--dir`).
// The walk starts from the real path of the folder (the one the operating system reports as the current
// directory) and climbs by folder name (to the nearest `.git` entry in git, else the filesystem root), so it never follows a symlink: a folder reached
// through a link belongs to the workspace of where it really is, never to one around the link.
// A folder is a workspace when it holds `.agentsync.json` or `.agentsync/handoffs.json` (what `init` creates and
// the extension activates on); a bare `.agentsync/` (another tool's, or stray files an older CLI wrote in a
// subfolder) is not enough, so it cannot shadow the workspace above it.
// The store's own module because the store says where it lives (src/core/workspace/workspaceLayout.ts); the editor's
// "is this folder initialized" is the same rule (isWorkspaceFolder).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findWorktree } from '../git/worktreeLocation';
import { WorkspaceLayout } from '../workspace/workspaceLayout';

/**
 * True when `dir` is an AgentSync workspace: it holds `.agentsync.json` or the store; in a git worktree also when its
 * clone's home holds a record for it or the main worktree's matching folder is initialized (docs/contract.md §14: a
 * folder in any worktree of an initialized clone is in that workspace whether or not its branch carries AgentSync).
 */
export function isWorkspaceFolder(dir: string): boolean {
  const layout = new WorkspaceLayout(dir);
  const own = [path.join(layout.root, '.agentsync.json'), layout.checkoutStoreFile, layout.handoffsFile];
  const main = layout.placement?.mainWorkspace;
  if (main) own.push(path.join(main, '.agentsync.json'), path.join(main, '.agentsync', 'handoffs.json'));
  return own.some((f) => fs.existsSync(f));
}

/**
 * The nearest folder at or above `start` that is an AgentSync workspace, or null. In git the search stops at the
 * nearest `.git` entry (a worktree nested in another is its own); a worktree that cannot be used (its main checkout
 * moved or deleted) is answered with its top, whose layout carries the problem every request then reports.
 */
export function findWorkspaceRoot(start: string): string | null {
  let dir: string;
  try {
    dir = fs.realpathSync.native(path.resolve(start));
  } catch {
    dir = path.resolve(start);
  }
  const worktree = findWorktree(dir);
  if (worktree && !worktree.ok) return worktree.worktreeRoot;
  const top = worktree?.location.worktreeRoot ?? null;
  for (;;) {
    if (isWorkspaceFolder(dir)) return dir;
    const up = path.dirname(dir);
    if (up === dir || dir === top) return null;
    dir = up;
  }
}

/** The refusal message for a folder outside every workspace: what was wrong and what to do. */
export function notAWorkspaceMessage(start: string): string {
  return (
    `${start} is not inside an AgentSync workspace (no .agentsync.json or .agentsync/handoffs.json there or in any folder above); ` +
    'nothing was written. Run the command inside the repository AgentSync was initialized in, pass --dir <workspace>, or run ' +
    "`agentsync init` in the repository's top folder first."
  );
}
