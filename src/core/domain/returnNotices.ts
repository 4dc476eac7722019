// notify_on_return (docs/agentsync-documentation.md, "Pass-over policies"): which returned work an agent is told about,
// once each. Whether a return asks for it is decided when it is made (the `notify` marker the return action stores);
// the editor feeds every store change of a folder to one ReturnNotices and shows what it hands out.
import { isReturnedWork } from './lifecycle';
import { isTerminal, type Handoff } from './handoffSchema';

/** Returned work, still open, whose `notify` marker names `agent`. */
export function notifies(h: Handoff, agent: string): boolean {
  return isReturnedWork(h) && !isTerminal(h.status) && h.notify?.agent === agent;
}

/**
 * Hands out each return to announce once. The first call only records what is already there: returns that came
 * back before the window opened are in the tree, not in a notification.
 */
export class ReturnNotices {
  private readonly seen = new Set<string>();
  private primed = false;

  /** The returned handoffs for `me` that appeared since the last call and ask to be announced. */
  take(handoffs: readonly Handoff[], me: string): Handoff[] {
    const fresh: Handoff[] = [];
    for (const h of handoffs) {
      if (!isReturnedWork(h)) continue;
      const key = h.uid ?? h.handoff_id;
      if (this.seen.has(key)) continue;
      this.seen.add(key); // whoever it is for: a later change of agentsync.agentId does not replay old returns
      if (this.primed && notifies(h, me)) fresh.push(h);
    }
    this.primed = true;
    return fresh;
  }
}
