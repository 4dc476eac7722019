// The one constructor of a new handoff record (docs/agentsync-documentation.md, "The handoff record"): every field
// the schema requires, at its neutral default, then what the creating action says. createHandoff, passOver and the
// return handoff all start here, so a new record field is added once.
import { requestMark, type ActionContext } from '../../store/handoffMutation';
import { newUid } from '../../domain/handoffIds';
import type { Handoff, HandoffStatus } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

/** The first history entry: the status the record starts in, who made it, and why. */
export interface Opening {
  status: HandoffStatus;
  agent: string;
  reason: string;
}

/** What the creating action decides; everything left out keeps its default. */
export type NewHandoffFields = Pick<Handoff, 'from_agent' | 'to_agents' | 'owner_mode' | 'summary'> & Partial<Handoff>;

export function newHandoffRecord(tx: StoreTransaction, ctx: ActionContext, opening: Opening, fields: NewHandoffFields): Handoff {
  const now = tx.now();
  const ts = now.toISOString();
  const { from_agent, to_agents, owner_mode, summary, ...rest } = fields;
  // A replayed offline create keeps the uid it was given (once: another record this request makes gets its own).
  const keep = ctx.keep && !tx.find(ctx.keep.uid) ? ctx.keep : undefined;
  return {
    handoff_id: fields.handoff_id ?? tx.snapshot.ids.next(now),
    task_id: null,
    from_agent,
    to_agents,
    owner_mode,
    status: opening.status,
    required_capabilities: [],
    summary,
    notes: '',
    no_handoff_reason: null,
    files: [],
    branch: null,
    commit: null,
    prior_attempts: 0,
    created_at: keep?.created_at ?? ts,
    updated_at: ts,
    state_history: [{ status: opening.status, agent: opening.agent, timestamp: ts, reason: opening.reason, ...requestMark(ctx) }],
    uid: keep?.uid ?? newUid(now.getTime()),
    rev: 1,
    ...rest,
  };
}
