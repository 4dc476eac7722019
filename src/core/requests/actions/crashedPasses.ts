// A receiver that died (docs/contract.md §6, "A receiver that died"): when an agent's session ends (its vendor's
// session-end hook, src/core/hooks/vendors/) while it holds passed work without a report, the work goes back to its
// origin at once with E011 SUBAGENT_CRASHED, by the path a timeout takes (timeOutPasses.ts), instead of waiting for the
// lease to lapse (E010). Only passes whose claim recorded that very session (its id, in that worktree) count: a claim
// without a session id cannot be told apart from another session's of the same agent, and is left to its lease.
import { SYSTEM_AGENT } from '../../domain/agentId';
import { DELEGATION_CODES } from '../../domain/delegationErrors';
import type { AgentSession } from '../../domain/agentSession';
import type { ActionContext } from '../../store/handoffMutation';
import { handBack, type TimedOut } from './timeOutPasses';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

const LABEL = `${DELEGATION_CODES.SUBAGENT_CRASHED} SUBAGENT_CRASHED`;

/** The passes `agent`'s session `session` holds (passed work in progress, claimed in that session and worktree). */
export function passesHeldBy(handoffs: readonly Handoff[], agent: string, session: AgentSession): Handoff[] {
  if (!session.id) return [];
  return handoffs.filter(
    (h) =>
      h.status === 'in_progress' &&
      !!h.return_to &&
      h.claimed_by === agent &&
      h.claimed_session?.id === session.id &&
      h.claimed_session.worktree === session.worktree,
  );
}

/**
 * Hands back every pass the ended session held. `how` says what told AgentSync the session ended (the vendor's event
 * and its reason, e.g. "Claude Code's SessionEnd hook (reason: prompt_input_exit)").
 */
export function returnCrashedPasses(tx: StoreTransaction, ctx: ActionContext, agent: string, session: AgentSession, how: string): TimedOut {
  const out: TimedOut = { timed_out: [], returned: [] };
  const system = { ...ctx, agent: SYSTEM_AGENT };
  const at = tx.now().toISOString();
  for (const h of passesHeldBy(tx.handoffs, agent, session)) {
    handBack(
      tx,
      system,
      h,
      {
        label: LABEL,
        title: 'Session ended',
        short: `the session of ${agent} that held ${h.handoff_id} ended without a report`,
        why: `the session ${session.id} of ${agent} ended at ${at} while holding it, without a report (${how})`,
        long:
          `${agent} claimed ${h.handoff_id}${h.claimed_at ? ` at ${h.claimed_at}` : ''} in its session ${session.id}, and that session ` +
          `ended at ${at} (${how}) before it completed or returned the work; its report, if it had one, was not sent.`,
      },
      out,
    );
  }
  return out;
}
