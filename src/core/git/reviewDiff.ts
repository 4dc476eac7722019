// What a per-file review shows (docs/contract.md §6, "Per-file review"): each file of the report as the diff between the
// commit the receiver's changes are on and that commit's merge base with the reviewer's HEAD. The changes' commit is
// the report's `commit`, else the tip of the handoff's worktree branch (§14); with neither, or one this clone does not
// have, the files are listed without a diff and the plan says why: never a file diffed against itself.
import type { Handoff } from '../domain/handoffSchema';
import { reportedFiles } from '../domain/fileReview';
import type { FileModification } from '../domain/fileModification';
import { runGitPlumbing, runGitPlumbingBytes } from './gitCommand';

/** One side of a file's diff: the file at a commit, or null for "no file" (added: no base side; deleted: no head side). */
export type DiffSide = { commit: string; path: string } | null;

export interface FileDiff {
  file: FileModification;
  base: DiffSide;
  head: DiffSide;
}

export type ReviewDiffPlan =
  { ok: true; head: string; base: string | null; from: string; files: FileDiff[] } | { ok: false; why: string; files: FileDiff[] };

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function commitOf(root: string, rev: string): string | null {
  const r = runGitPlumbing(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  const id = r.stdout.trim();
  return r.ok && OBJECT_ID.test(id) ? id : null;
}

/** Where the receiver's changes are: the report's commit, else the handoff's worktree branch; or why neither serves. */
function changesCommit(root: string, h: Handoff): { head: string; from: string } | { why: string } {
  const reported = h.result?.commit;
  if (reported) {
    const head = commitOf(root, reported);
    return head
      ? { head, from: `the report's commit ${reported.slice(0, 12)}` }
      : { why: `the report's commit ${reported.slice(0, 12)} is not in this clone; fetch it (git fetch) to see the diffs` };
  }
  if (h.worktree) {
    const head = commitOf(root, `refs/heads/${h.worktree.branch}`);
    return head
      ? { head, from: `the tip of worktree branch ${h.worktree.branch}` }
      : { why: `worktree branch ${h.worktree.branch} is not in this clone` };
  }
  return {
    why: `${h.handoff_id}'s report names no commit and the handoff has no worktree, so there is no commit its changes are on to diff`,
  };
}

/** The diff of every file of `h`'s report, seen from the worktree at `root`, or the files alone and why there is no diff. */
export function reviewDiffPlan(root: string, h: Handoff): ReviewDiffPlan {
  const files = reportedFiles(h);
  const found = changesCommit(root, h);
  if ('why' in found) return { ok: false, why: found.why, files: files.map((file) => ({ file, base: null, head: null })) };
  const head = found.head;
  const mb = runGitPlumbing(root, ['merge-base', 'HEAD', head]);
  let base: string | null = mb.ok && OBJECT_ID.test(mb.stdout.trim()) ? mb.stdout.trim() : null;
  // The changes are already in the reviewer's HEAD: the change is the commit's own, against its parent (a root commit: none).
  if (base === head) base = commitOf(root, `${head}^`);
  return {
    ok: true,
    head,
    base,
    from: found.from,
    files: files.map((file) => ({
      file,
      base: base && file.change !== 'added' ? { commit: base, path: file.path } : null,
      head: file.change !== 'deleted' ? { commit: head, path: file.path } : null,
    })),
  };
}

/** The bytes of `path` at `commit` (the editor's read-only diff sides), or null when it is not there. */
export function blobAt(root: string, commit: string, path: string): Buffer | null {
  if (!OBJECT_ID.test(commit) || path.startsWith('-') || path.includes('\0')) return null;
  const r = runGitPlumbingBytes(root, ['cat-file', 'blob', `${commit}:${path}`]);
  return r.ok ? r.stdout : null;
}
