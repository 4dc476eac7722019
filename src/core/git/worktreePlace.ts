// Where a request comes from: the worktree's name and the branch it has checked out, read from files only (no process
// started, like worktreeLocation.ts): what a claim records as where it was taken (docs/contract.md §4, "Who may act").
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findWorktree, MAIN_WORKTREE_NAME } from './worktreeLocation';

/** `refs/heads/<branch>` in `<gitDir>/HEAD` → `<branch>`; null for a detached HEAD or a HEAD that cannot be read. */
export function headBranch(gitDir: string): string | null {
  let text: string;
  try {
    const file = path.join(gitDir, 'HEAD');
    if (fs.statSync(file).size > 4096) return null;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const m = /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(text);
  return m ? m[1].slice(0, 200) : null;
}

/** The worktree `folder` is in (git's name, `main` outside any linked worktree) and its branch. */
export function placeOf(folder: string): { worktree: string; branch: string | null } {
  const found = findWorktree(folder);
  if (!found?.ok) return { worktree: MAIN_WORKTREE_NAME, branch: null };
  return { worktree: found.location.name, branch: headBranch(found.location.gitDir) };
}
