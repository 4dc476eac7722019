// What this clone knows of a handoff's worktree (docs/contract.md §14 item 5): `worktree_gone` (core/git/worktreeGone.ts)
// and the merged offer (core/git/mergedOffer.ts). One place for the CLI's human lines and its --json fields, so
// `worktree list`, `list` and `show` say the same in both. Outside git there is neither.
import type { Handoff } from '../core/domain/handoffSchema';
import { originatorOf } from '../core/domain/lifecycle';
import { mergedOffers, type MergedOffer } from '../core/git/mergedOffer';
import { goneWorktrees, worktreeGoneText } from '../core/git/worktreeGone';
import type { CliContext } from './cliContext';

/** A held handoff whose worktree this clone made and no longer has. */
export interface WorktreeGone {
  handoff_id: string;
  worktree: string;
  branch: string;
  message: string;
}

/** The held handoffs among `hs` whose worktree is gone, in their order. */
export function worktreesGone(ctx: CliContext, hs: readonly Handoff[]): WorktreeGone[] {
  const placement = ctx.layout.placement;
  if (!placement) return [];
  const gone = goneWorktrees(placement.location, hs);
  return hs
    .filter((h) => gone.has(h.handoff_id))
    .map((h) => ({ handoff_id: h.handoff_id, worktree: h.worktree!.name, branch: h.worktree!.branch, message: worktreeGoneText(h) }));
}

/** The merged offers for `hs` (open handoffs whose worktree branch reached the default branch). */
export function mergedOffersOf(ctx: CliContext, hs: readonly Handoff[]): MergedOffer[] {
  const placement = ctx.layout.placement;
  return placement ? mergedOffers(placement.location, hs, originatorOf) : [];
}
