// A file's path as the record names it, across the worktrees of one clone (docs/contract.md §14 item 4): relative to
// the workspace inside the innermost worktree that contains the file's real path. So a claim listing `src/a.ts`
// taken in one worktree matches an edit of `src/a.ts` in any other worktree of the clone, in a worktree nested inside
// another (`.claude/worktrees/x`, its own), and through a symlinked folder. Files only, no process.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findWorktree, type WorktreeLocation } from './worktreeLocation';

/** The real path of `file`, which may not exist yet (a tool about to create it): its nearest existing folder's, joined. */
function realPathOf(file: string): string {
  const rest: string[] = [];
  let at = file;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(at), ...rest.reverse());
    } catch {
      const up = path.dirname(at);
      if (up === at) return file;
      rest.push(path.basename(at));
      at = up;
    }
  }
}

function inside(rel: string): boolean {
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * `files` (absolute, or relative to `base`) as workspace-relative, `/`-separated paths of the workspace at `root`:
 * each relative to the same workspace folder in the innermost worktree of the same clone that holds it. A file in no
 * worktree of this clone is taken relative to `root` itself; one outside every candidate is dropped.
 */
export function worktreeRelative(root: string, base: string, files: readonly string[]): string[] {
  const realRoot = realPathOf(path.resolve(root));
  const home = findWorktree(realRoot);
  const own: WorktreeLocation | null = home?.ok ? home.location : null;
  // The workspace's place inside its worktree (a monorepo's package), the same in every worktree of the clone.
  const offset = own ? path.relative(own.worktreeRoot, realRoot) : '';
  const out: string[] = [];
  for (const f of files) {
    const real = realPathOf(path.resolve(base, f));
    let rel = path.relative(realRoot, real);
    const found = own ? findWorktree(path.dirname(real)) : null;
    if (own && found?.ok && found.location.commonDir === own.commonDir) {
      rel = path.relative(path.join(found.location.worktreeRoot, offset), real);
    }
    if (inside(rel)) out.push(rel.split(path.sep).join('/'));
  }
  return out;
}
