// A handoff's worktree removed by other means than `agentsync worktree remove` (docs/contract.md §14 item 5): its
// folder deleted (with or without `git worktree prune`) while the handoff is held. The holder keeps the work: it is
// shown as `worktree_gone` to the holder and the originator, never released silently. Read from files only.
import type { Handoff } from '../domain/handoffSchema';
import { cloneWorktrees } from './cloneWorktrees';
import { resolveRef } from './gitHead';
import type { WorktreeLocation } from './worktreeLocation';

/** What this module reads of a handoff. */
type Bound = Pick<Handoff, 'handoff_id' | 'status' | 'claimed_by' | 'worktree'>;

/** Held for this check: in progress with a holder (an expired lease too: the sweep gives it back, not this). */
function heldWithWorktree(h: Bound): h is Bound & { worktree: NonNullable<Handoff['worktree']> } {
  return Boolean(h.worktree) && h.status === 'in_progress' && Boolean(h.claimed_by);
}

/**
 * The ids of held handoffs whose worktree this clone made and no longer has. Made here: the binding's branch is a
 * branch of this clone (`worktree add` makes it, `remove` keeps it), so a binding a teammate's clone recorded and a
 * pull brought in is not taken for a worktree gone from this machine.
 */
export function goneWorktrees(location: WorktreeLocation, handoffs: readonly Bound[]): Set<string> {
  const bound = handoffs.filter(heldWithWorktree);
  if (bound.length === 0) return new Set();
  const present = new Set(cloneWorktrees(location).map((w) => w.name));
  const gone = bound.filter((h) => !present.has(h.worktree.name) && resolveRef(location.commonDir, `refs/heads/${h.worktree.branch}`));
  return new Set(gone.map((h) => h.handoff_id));
}

/** The line that says so, naming the worktree and what the holder does next. */
export function worktreeGoneText(h: Bound): string {
  const name = h.worktree?.name ?? '?';
  return (
    `worktree_gone: the worktree ${name} (branch ${h.worktree?.branch ?? '?'}) was removed while ${h.handoff_id} is held by ` +
    `${h.claimed_by ?? '?'}; the work stays held (nothing was released). Its branch is kept: the holder continues there ` +
    `(\`git worktree prune\`, then \`git worktree add <path> ${h.worktree?.branch ?? ''}\`), or completes, passes or releases ` +
    `${h.handoff_id}.`
  );
}
