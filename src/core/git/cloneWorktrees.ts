// Every worktree of a clone, read from disk (docs/contract.md §14 item 3): the main worktree and each
// `<git-common-dir>/worktrees/<name>/gitdir`, which names the linked worktree's `.git` file. Read again on every call,
// so a worktree added or removed while a watcher runs is seen at its next rescan. No process is started.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAIN_WORKTREE_NAME, readSmall, type WorktreeLocation } from './worktreeLocation';

export interface CloneWorktree {
  name: string;
  /** The worktree's top folder (real path when it exists). */
  root: string;
}

function realDir(p: string): string | null {
  try {
    return fs.statSync(p).isDirectory() ? fs.realpathSync.native(p) : null;
  } catch {
    return null;
  }
}

/** The clone's worktrees whose folders exist, main first (a bare clone has none of its own). */
export function cloneWorktrees(location: WorktreeLocation): CloneWorktree[] {
  const out: CloneWorktree[] = [];
  const main = location.mainWorktree ? realDir(location.mainWorktree) : null;
  if (main) out.push({ name: MAIN_WORKTREE_NAME, root: main });
  let names: string[] = [];
  try {
    names = fs.readdirSync(path.join(location.commonDir, 'worktrees')).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const pointer = readSmall(path.join(location.commonDir, 'worktrees', name, 'gitdir'))?.trim();
    if (!pointer) continue;
    const root = realDir(path.dirname(path.resolve(location.commonDir, 'worktrees', name, pointer)));
    if (root && !out.some((w) => w.root === root)) out.push({ name, root });
  }
  return out;
}

/**
 * Lists the drop zone's runtime paths in `<git-common-dir>/info/exclude`, which every worktree of the clone shares, so
 * an answer never leaves an untracked file whatever a branch's `.gitignore` says. `paths` are repository-relative
 * patterns; the ones already there are left alone. Returns the lines added.
 */
export function excludeInClone(location: WorktreeLocation, patterns: readonly string[]): string[] {
  const dir = path.join(location.commonDir, 'info');
  const file = path.join(dir, 'exclude');
  let text = '';
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return [];
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // no exclude file yet
  }
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = patterns.filter((p) => !have.has(p));
  if (missing.length === 0) return [];
  fs.mkdirSync(dir, { recursive: true });
  const head = text === '' || text.endsWith('\n') ? '' : '\n';
  fs.appendFileSync(file, `${head}# AgentSync drop zone (runtime, every worktree)\n${missing.join('\n')}\n`);
  return missing;
}
