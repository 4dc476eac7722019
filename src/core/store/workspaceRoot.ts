// Which AgentSync workspace a folder belongs to, found the way git finds .git (docs/contract.md §8, `--dir`).
// The walk starts from the real path of the folder (the one the operating system reports as the current
// directory) and climbs by folder name to the filesystem root, so it never follows a symlink: a folder reached
// through a link belongs to the workspace of where it really is, never to one around the link.
// A folder is a workspace when it holds `.agentsync.json` or `.agentsync/handoffs.json` (what `init` creates and
// the extension activates on); a bare `.agentsync/` (another tool's, or stray files an older CLI wrote in a
// subfolder) is not enough, so it cannot shadow the workspace above it.
// The store's own module because the store says where it lives (src/core/workspace/workspaceLayout.ts); the editor's
// "is this folder initialized" is the same rule (isWorkspaceFolder).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorkspaceLayout } from '../workspace/workspaceLayout';

/** True when `dir` is an AgentSync workspace: it holds `.agentsync.json` or the store. */
export function isWorkspaceFolder(dir: string): boolean {
  const layout = new WorkspaceLayout(dir);
  return fs.existsSync(layout.configFile) || fs.existsSync(layout.handoffsFile);
}

/** The nearest folder at or above `start` that is an AgentSync workspace, or null (none up to the filesystem root). */
export function findWorkspaceRoot(start: string): string | null {
  let dir: string;
  try {
    dir = fs.realpathSync.native(path.resolve(start));
  } catch {
    dir = path.resolve(start);
  }
  for (;;) {
    if (isWorkspaceFolder(dir)) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
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
