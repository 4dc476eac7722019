// Making and removing a handoff's git worktree (docs/contract.md §14 item 5, `agentsync worktree add|remove`). Git runs
// with the safe options and the repository's own filter drivers switched off (gitCommand.ts): a checkout would
// otherwise run a smudge filter or a post-checkout hook the repository names.
import { runGit, runGitPlumbing, type GitResult } from './gitCommand';

/** The commit HEAD names in the worktree at `root`; null on an unborn branch. */
export function headCommit(root: string): string | null {
  const r = runGitPlumbing(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  return r.ok ? r.stdout.trim() : null;
}

/** Whether `commit` holds the file at repository path `file`. */
export function commitHasFile(root: string, commit: string, file: string): boolean {
  return runGitPlumbing(root, ['cat-file', '-e', `${commit}:${file}`]).ok;
}

/** Whether `branch` is a valid new branch name, and whether it exists already. */
export function branchState(root: string, branch: string): 'invalid' | 'exists' | 'free' {
  if (!runGitPlumbing(root, ['check-ref-format', '--branch', branch]).ok) return 'invalid';
  return runGitPlumbing(root, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]).ok ? 'exists' : 'free';
}

/** `git worktree add -b <branch> <target> <commit>`: the worktree, on a new branch from `commit`. */
export function addWorktree(root: string, target: string, branch: string, commit: string): GitResult {
  return runGit(root, ['worktree', 'add', '-q', '-b', branch, '--', target, commit]);
}

/** `git worktree remove [--force] <target>`; git itself refuses a worktree with changes unless forced. */
export function removeWorktree(root: string, target: string, force: boolean): GitResult {
  return runGit(root, ['worktree', 'remove', ...(force ? ['--force'] : []), '--', target]);
}

/** Undoes an addWorktree whose binding could not be recorded: the worktree and its new, empty-of-work branch go. */
export function undoAddWorktree(root: string, target: string, branch: string): void {
  removeWorktree(root, target, true);
  runGitPlumbing(root, ['branch', '-D', '--', branch]);
}
