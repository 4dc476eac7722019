// Withdrawing a pass (docs/contract.md §6, "Withdraw"): the originator of passed work (or a human) takes it back. The
// record goes to the terminal status `withdrawn`; its receiver is told, and whatever it sends about it afterwards is
// refused `withdrawn`. The rules here are pure; the action is requests/actions/withdrawPass.ts.
import { isHuman } from './agentId';
import { ActionError } from './errors';
import { isTerminal, type Handoff, type HistoryEntry } from './handoffSchema';
import { isReturnedWork } from './lifecycle';

/** Work a passOver made: it has a chain (passer, receiver) and is not the return of work to its origin. */
export function isPassedWork(h: Handoff): boolean {
  return (h.chain?.length ?? 0) >= 2 && h.reason !== 'return' && !isReturnedWork(h);
}

/** Who passed it: the agent it returns to, else the one that made the pass. */
export function passerOf(h: Handoff): string {
  return h.return_to ?? h.from_agent;
}

/** Whether the pass may be withdrawn now: passed work that is still open. */
export function canWithdraw(h: Handoff): boolean {
  return isPassedWork(h) && !isTerminal(h.status);
}

/** The history entry that withdrew it, or null. */
export function withdrawalOf(h: Handoff): HistoryEntry | null {
  if (h.status !== 'withdrawn') return null;
  for (let i = h.state_history.length - 1; i >= 0; i--) if (h.state_history[i].status === 'withdrawn') return h.state_history[i];
  return null;
}

/** The agents a withdrawal is told to: whoever held the pass, else its owners. */
export function receiversOf(h: Handoff): string[] {
  return h.claimed_by ? [h.claimed_by] : [...h.to_agents];
}

/** Throws `withdrawn` for any change of a withdrawn pass (a late report, a heartbeat, a claim), naming who withdrew it and why. */
export function assertNotWithdrawn(h: Handoff): void {
  const w = withdrawalOf(h);
  if (h.status !== 'withdrawn') return;
  throw new ActionError(
    'withdrawn',
    `${h.handoff_id} was withdrawn by ${w?.agent ?? 'its originator'}${w?.reason ? ` (${w.reason})` : ''}; nothing more is taken for it. ` +
      'Stop working on it; ask the originator if the work is still wanted.',
    { handoff_id: h.handoff_id, withdrawn_by: w?.agent ?? null, withdrawn_at: w?.timestamp ?? null, withdrawn_reason: w?.reason ?? null },
  );
}

/** Throws unless `agent` may withdraw `h`: its passer, or a human. */
export function assertMayWithdraw(h: Handoff, agent: string, humans: readonly string[]): void {
  if (isHuman(agent, humans) || agent === passerOf(h)) return;
  throw new ActionError(
    'not_assigned',
    `${agent} may not withdraw ${h.handoff_id}: only the agent that passed it (${passerOf(h)}) or a human may.`,
    { handoff_id: h.handoff_id, agent, allowed: [passerOf(h)] },
  );
}
