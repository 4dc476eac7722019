// A handoff that owns a worktree (docs/contract.md §14 item 5): the branch its worktree is made on, and when the
// worktree may not be removed (`worktree_held`).
import type { Handoff } from './handoffSchema';

/** The branch `agentsync worktree add` makes for a handoff: named from its id, so `git branch` says whose it is. */
export function worktreeBranchFor(handoffId: string): string {
  return `agentsync/${handoffId}`;
}

/** Held: in progress with a claim whose lease has not run out. Removing its worktree would pull the floor from under its holder. */
export function isHeld(h: Pick<Handoff, 'status' | 'claimed_by' | 'lease_expires_at'>, now: Date): boolean {
  if (h.status !== 'in_progress' || !h.claimed_by) return false;
  return !h.lease_expires_at || Date.parse(h.lease_expires_at) > now.getTime();
}
