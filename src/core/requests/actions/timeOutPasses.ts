// Hands timed-out passed work back to its origin (docs/contract.md §6, docs/agentsync-documentation.md "Timeouts"): the pass
// is escalated with E010 SUBAGENT_TIMEOUT or E022 RETURN_TIMEOUT in its history, and a queued handoff to its
// return_to explains what happened and what to do. Run before every write request, by expireLeases, and when a
// read finds something due (requestDispatcher.ts), so a user sees it without asking for it.
import { SYSTEM_AGENT } from '../../domain/agentId';
import { DELEGATION_CODES } from '../../domain/delegationErrors';
import { applyStatusChange, boundedReason, type ActionContext } from '../../store/handoffMutation';
import { dueTimeouts, type DueTimeout } from '../../domain/passTimeouts';
import { createTimeoutReturn } from './returnToOriginator';
import { joinGroupIfDone } from './groupJoin';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export interface TimedOut {
  /** The passed handoffs, now escalated. */
  timed_out: Handoff[];
  /** The handoffs that carry each back to its origin, in the same order; null for a fan-out child whose group has not joined yet. */
  returned: (Handoff | null)[];
}

export function timeOutPasses(tx: StoreTransaction, ctx: ActionContext): TimedOut {
  const out: TimedOut = { timed_out: [], returned: [] };
  const system = { ...ctx, agent: SYSTEM_AGENT };
  for (const due of dueTimeouts(tx.handoffs, tx.config, tx.now())) {
    // Records are replaced, never mutated: one changed by an earlier step (a lease renewed when work came back to
    // its holder) is no longer the one found due, and is looked at again by the next sweep.
    const h = due.handoff;
    if (tx.find(h.uid ?? h.handoff_id) !== h) continue;
    handBack(tx, system, h, explain(due, h), out);
  }
  return out;
}

/** Why a pass went back, in the words its history, its return and the join use. */
export interface HandBackText {
  /** "E010 SUBAGENT_TIMEOUT", the head of every history reason written. */
  label: string;
  /** The return's summary opens with it: "Timed out", "Session ended". */
  title: string;
  short: string;
  why: string;
  long: string;
}

/**
 * Ends a pass whose receiver is gone (timed out, or its session ended) and hands the work back to its origin: a
 * fan-out child is escalated and named in its group's one joined return (groupJoin.ts); any other is escalated and a
 * queued handoff to its return_to explains what happened and what to do. Appends to `out`.
 */
export function handBack(tx: StoreTransaction, system: ActionContext, h: Handoff, text: HandBackText, out: TimedOut): void {
  if (h.group) {
    const ended = applyStatusChange(
      tx,
      system,
      h,
      'escalated',
      boundedReason(`${text.label}: ${text.why}; named in the join of its group`),
      {
        lease_expires_at: null,
      },
    );
    out.timed_out.push(ended);
    out.returned.push(joinGroupIfDone(tx, system, ended));
    return;
  }
  const back = createTimeoutReturn(tx, system, h, {
    summary: `${text.title} (${text.label}): ${text.short}: ${h.summary}`,
    notes:
      `${text.long} AgentSync handed the work back to ${h.return_to}. To go on: claim this handoff and do it, or pass it over again ` +
      `(to ${h.to_agents[0]} to retry, or to another agent).${h.notes ? `\n\nNotes of ${h.handoff_id}:\n${h.notes}` : ''}`,
    reason: `${text.label}: handed back from ${h.handoff_id} (${text.short})`,
  });
  const closed = applyStatusChange(
    tx,
    system,
    h,
    'escalated',
    boundedReason(`${text.label}: ${text.why}; handed back to ${h.return_to} as ${back.handoff_id}`),
    { lease_expires_at: null },
  );
  out.timed_out.push(closed);
  out.returned.push(back);
}

function explain(due: DueTimeout, h: Handoff): HandBackText {
  const label = `${DELEGATION_CODES[due.code]} ${due.code}`;
  const holder = h.claimed_by ?? h.to_agents[0];
  if (due.code === 'SUBAGENT_TIMEOUT') {
    return {
      label,
      title: 'Timed out',
      short: `${holder} did not finish ${h.handoff_id}`,
      why: `the lease of ${holder} ran out at ${due.since} (timeout_ms ${due.timeoutMs}) before it finished`,
      long:
        `${holder} claimed ${h.handoff_id}${h.claimed_at ? ` at ${h.claimed_at}` : ''} but neither completed it nor renewed its lease ` +
        `(heartbeat) within timeout_ms ${due.timeoutMs}; the lease ran out at ${due.since}.`,
    };
  }
  return {
    label,
    title: 'Timed out',
    short: `nobody claimed ${h.handoff_id}`,
    why: `nobody claimed it within timeout_ms ${due.timeoutMs} (queued since ${due.since})`,
    long: `${h.handoff_id} waited, queued for ${h.to_agents.join(', ')}, from ${due.since}, and nobody claimed it within timeout_ms ${due.timeoutMs}.`,
  };
}
