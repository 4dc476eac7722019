// The text of a new-work notification (newWorkNotifier.ts): who handed or returned what, and a burst in one line.
import { displayAgent } from '../../core/domain/agentId';
import type { Handoff } from '../../core/domain/handoffSchema';
import { isReturnedWork } from '../../core/domain/lifecycle';

/** The notification's text for one or more arrivals. */
export function newWorkMessage(arrivals: readonly { handoff: Handoff }[]): string {
  const [first] = arrivals;
  const h = first.handoff;
  const what = h.summary.split('\n')[0].slice(0, 160);
  const verb = isReturnedWork(h) ? 'returned' : 'handed you';
  const one = `AgentSync: ${displayAgent(h.from_agent)} ${verb} ${h.handoff_id}${isReturnedWork(h) ? ' to you' : ''}: ${what}`;
  if (arrivals.length === 1) return one;
  const rest = arrivals.slice(1).map((a) => `${a.handoff.handoff_id} (${displayAgent(a.handoff.from_agent)})`);
  return `${one}; and ${rest.length} more: ${rest.slice(0, 5).join(', ')}${rest.length > 5 ? ', …' : ''}`;
}
