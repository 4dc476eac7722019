// Work that arrives for this window's agent while it is open (docs/agentsync-documentation.md, "New work
// notifications"): a handoff another agent created for it, or returned to it, by any surface (the drop zone, the
// CLI, MCP, a git pull). Announced once each; what was there when the window opened is in the tree, not in a
// notification. A return that asks for notify_on_return is returnNotices.ts's to announce, not this one's.
import { isTerminal, type Handoff } from './handoffSchema';
import { OnceNotices } from './onceNotices';
import { notifies } from './returnNotices';

/** Open work addressed to `agent` that someone else handed out. */
export function isNewWorkFor(h: Handoff, agent: string): boolean {
  return !isTerminal(h.status) && h.to_agents.includes(agent) && h.from_agent !== agent && !h.claimed_by && !notifies(h, agent);
}

/** Hands out each new handoff for `me` once; the first call only records what is already there. */
export class NewWorkNotices extends OnceNotices {
  constructor() {
    super(isNewWorkFor);
  }
}
