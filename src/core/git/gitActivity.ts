// Staying out of git's way (docs/agentsync-documentation.md, "Git"): while `git checkout`, `merge` or `reset` runs,
// git holds .git/index.lock and replaces tracked files by unlinking and re-creating them. A write of ours in that
// window either overwrites the branch git just wrote or makes git fail with "unable to create file ...: File exists".
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The git directory of the repository `root` is the top of, or null outside git (worktrees' `.git` files followed). */
function gitDirOf(root: string): string | null {
  const dotGit = path.join(root, '.git');
  try {
    const st = fs.lstatSync(dotGit);
    if (st.isDirectory()) return dotGit;
    if (!st.isFile() || st.size > 4096) return null;
    const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return m ? path.resolve(root, m[1].trim()) : null;
  } catch {
    return null;
  }
}

export function gitIndexLockPath(root: string): string | null {
  const dir = gitDirOf(root);
  return dir ? path.join(dir, 'index.lock') : null;
}

/**
 * True when git's index lists `relPath` (a file of the repository `root` is the top of): a missing tracked file is
 * git between unlinking and re-creating it, or a deletion, never a reason to start the file afresh.
 */
export function gitTracks(root: string, relPath: string): boolean {
  const dir = gitDirOf(root);
  if (!dir) return false;
  try {
    const index = path.join(dir, 'index');
    const st = fs.lstatSync(index);
    if (!st.isFile() || st.size > 256 * 1024 * 1024) return false;
    // Index entries hold the path as plain bytes followed by NUL; a substring search is enough for this question.
    return fs.readFileSync(index).includes(Buffer.from(`${relPath}\0`));
  } catch {
    return false;
  }
}

export function gitBusy(indexLock: string | null): boolean {
  return indexLock !== null && fs.existsSync(indexLock);
}

/** Waits (polling) while git holds its index lock, at most `maxMs`; true when git is idle. */
export async function waitForGitIdle(indexLock: string | null, maxMs: number): Promise<boolean> {
  const until = Date.now() + maxMs;
  while (gitBusy(indexLock)) {
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
