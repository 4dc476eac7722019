// The `merged` offer (docs/contract.md §14 item 5): the work on a handoff's worktree branch reached the default branch,
// so its originator is offered the move that records it. Never set silently: this only says so. Reached means the
// branch's tip, moved on from the commit the binding recorded, is an ancestor of the default branch: a merge commit
// or a fast-forward. A squash or rebase merge makes new commits, so it is not detected (the docs say so).
import * as path from 'node:path';
import { isTerminal, type Handoff } from '../domain/handoffSchema';
import { runGitPlumbing } from './gitCommand';
import { resolveRef } from './gitHead';
import { readSmall, type WorktreeLocation } from './worktreeLocation';

export interface MergedOffer {
  handoff_id: string;
  branch: string;
  /** The default branch it reached (`main`, `origin/main`). */
  into: string;
  /** The command that records it, for the handoff's status now. */
  command: string;
  message: string;
}

/** The default branch as a ref: the remote's HEAD when known, else init.defaultBranch, else main or master. */
export function defaultBranchRef(location: WorktreeLocation): { ref: string; name: string } | null {
  const remoteHead = /^ref:\s*(refs\/remotes\/([^\s]+))\s*$/m.exec(
    readSmall(path.join(location.commonDir, 'refs', 'remotes', 'origin', 'HEAD')) ?? '',
  );
  if (remoteHead && resolveRef(location.commonDir, remoteHead[1])) return { ref: remoteHead[1], name: remoteHead[2] };
  const configured = runGitPlumbing(location.commonDir, ['config', '--get', 'init.defaultBranch']);
  const names = [...(configured.ok ? [configured.stdout.trim()] : []), 'main', 'master'].filter(Boolean);
  for (const name of names) if (resolveRef(location.commonDir, `refs/heads/${name}`)) return { ref: `refs/heads/${name}`, name };
  return null;
}

function commandFor(h: Handoff, originator: string): string {
  if (h.status === 'approved') return `agentsync merge ${h.handoff_id} --agent ${originator}`;
  if (h.status === 'ready_for_review')
    return `agentsync approve ${h.handoff_id} --agent ${originator}, then agentsync merge ${h.handoff_id}`;
  return `its holder completes it (agentsync complete ${h.handoff_id}), then agentsync approve and agentsync merge ${h.handoff_id}`;
}

/** The offers for `handoffs` (open, bound to a worktree branch of this clone whose new commits reached the default branch). */
export function mergedOffers(
  location: WorktreeLocation,
  handoffs: readonly Handoff[],
  originatorOf: (h: Handoff) => string,
): MergedOffer[] {
  const bound = handoffs.filter((h) => h.worktree && !isTerminal(h.status));
  if (bound.length === 0) return [];
  const into = defaultBranchRef(location);
  if (!into) return [];
  const offers: MergedOffer[] = [];
  for (const h of bound) {
    const w = h.worktree!;
    const tip = resolveRef(location.commonDir, `refs/heads/${w.branch}`);
    if (!tip || tip === w.commit || w.branch === into.name) continue;
    if (!runGitPlumbing(location.commonDir, ['merge-base', '--is-ancestor', tip, into.ref]).ok) continue;
    const command = commandFor(h, originatorOf(h));
    offers.push({
      handoff_id: h.handoff_id,
      branch: w.branch,
      into: into.name,
      command,
      message:
        `merged: the branch ${w.branch} of ${h.handoff_id} (at ${tip.slice(0, 12)}) reached ${into.name}; if the work is done, ` +
        `record it: ${command}. Nothing was changed (a squash or rebase merge is not detected).`,
    });
  }
  return offers;
}
