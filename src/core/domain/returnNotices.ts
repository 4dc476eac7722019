// notify_on_return (docs/agentsync-documentation.md, "Pass-over policies"): which returned work an agent is told about,
// once each. Whether a return asks for it is decided when it is made (the `notify` marker the return action stores);
// the editor feeds every store change of a folder to one ReturnNotices and shows what it hands out.
import { isReturnedWork } from './lifecycle';
import { isTerminal, type Handoff } from './handoffSchema';
import { OnceNotices } from './onceNotices';

/** Returned work, still open, whose `notify` marker names `agent`. */
export function notifies(h: Handoff, agent: string): boolean {
  return isReturnedWork(h) && !isTerminal(h.status) && h.notify?.agent === agent;
}

/**
 * Hands out each return to announce once. The first call only records what is already there: returns that came
 * back before the window opened are in the tree, not in a notification.
 */
export class ReturnNotices extends OnceNotices {
  /** Only returned work counts as seen: work handed out earlier is judged again once it comes back. */
  constructor() {
    super(notifies, isReturnedWork);
  }
}
