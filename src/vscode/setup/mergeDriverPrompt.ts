// `init --git` from the editor (docs/contract.md §8; docs/agentsync-documentation.md "Initialize"): registering the merge
// driver writes the repository's git config and .gitattributes, and makes git run a command on every merge, so
// the editor asks first (modal) and does nothing without a yes. Asked only in a git repository where the driver
// is not registered yet.
import * as vscode from 'vscode';
import { runGit } from '../../core/git/gitCommand';
import { registerMergeDriver, type GitRegistration } from '../../core/git/mergeDriverRegistration';

export const REGISTER_BUTTON = 'Register Merge Driver';

function gitOk(root: string, args: string[]): boolean {
  try {
    return runGit(root, args).ok;
  } catch {
    return false; // git is not installed
  }
}

/** A git work tree whose config has no merge.agentsync.driver yet. */
export function needsMergeDriver(root: string): boolean {
  return gitOk(root, ['rev-parse', '--is-inside-work-tree']) && !gitOk(root, ['config', '--get', 'merge.agentsync.driver']);
}

export type MergeDriverOutcome = { registered: GitRegistration } | { declined: true } | { notApplicable: true };

export async function offerMergeDriver(root: string, folderName: string): Promise<MergeDriverOutcome> {
  if (!needsMergeDriver(root)) return { notApplicable: true };
  const choice = await vscode.window.showInformationMessage(
    `Register AgentSync's git merge driver in ${folderName}?`,
    {
      modal: true,
      detail:
        'Two clones that both change handoffs then merge on `git pull` without a conflict in .agentsync/handoffs.json. ' +
        "This sets merge.agentsync.* in this repository's git config (git will run this extension's `agentsync merge-driver` " +
        'when it merges that file) and adds lines to .gitattributes. Nothing else changes; `agentsync init --git` does the same later.',
    },
    REGISTER_BUTTON,
  );
  if (choice !== REGISTER_BUTTON) return { declined: true };
  return { registered: registerMergeDriver(root) };
}
