// The handoff that carries passed-over work back to its originator (docs/contract.md §6): with the receiver's result when it
// completes, or with the explanation when the pass timed out (E010 / E022, timeOutPasses.ts).
import { applyFieldChange, auditEntry, boundedReason, type ActionContext } from '../../store/handoffMutation';
import { newHandoffRecord } from './newHandoffRecord';
import { LIMITS, type Handoff, type HandoffStatus } from '../../domain/handoffSchema';
import type { PassOverPolicy } from '../../domain/configSchema';
import { resolvePassOverPolicy } from '../../domain/passOverPolicy';
import { leaseUntil } from './claimHandoff';
import { shouldNotify } from './returnPolicy';
import type { StoreTransaction } from '../../store/storeTransaction';

interface ReturnSpec {
  status: HandoffStatus;
  summary: string;
  notes: string;
  /** Why it came back: the first history entry of the returned handoff. */
  reason: string;
  chain: string[] | undefined;
  /** The audit line's action: returnHandoff for a completed pass, the sweep's own for a timeout. */
  auditAction: string;
  policy: PassOverPolicy;
}

/** Creates the handoff that carries `done`'s result back to `done.return_to`. */
export function createReturnHandoff(tx: StoreTransaction, ctx: ActionContext, done: Handoff, note: string | null): Handoff {
  const to = done.return_to!;
  // The policy stored at pass time (inline override included) governs the return; older records resolve it now.
  const policy = done.policy ?? resolvePassOverPolicy(tx.config, to, ctx.agent);
  return insertReturn(tx, ctx, done, {
    status: policy.auto_return ? 'ready_for_review' : 'queued',
    summary: `Returned by ${ctx.agent}: ${done.result?.context_summary || done.summary}`,
    notes: note ?? '',
    reason: `returned from ${done.handoff_id}`,
    chain: done.chain,
    auditAction: 'returnHandoff',
    policy,
  });
}

/**
 * Hands timed-out work back to its origin, queued (there is no report to review). Its chain ends before the agent
 * that timed out, so the origin may pass the work to that agent again (a retry) without it counting as a ping-pong.
 */
export function createTimeoutReturn(
  tx: StoreTransaction,
  ctx: ActionContext,
  done: Handoff,
  explained: { summary: string; notes: string; reason: string },
): Handoff {
  const policy = done.policy ?? resolvePassOverPolicy(tx.config, done.return_to!, done.to_agents[0] ?? '');
  return insertReturn(tx, ctx, done, { status: 'queued', ...explained, chain: done.chain?.slice(0, -1), auditAction: ctx.action, policy });
}

function insertReturn(tx: StoreTransaction, ctx: ActionContext, done: Handoff, spec: ReturnSpec): Handoff {
  const to = done.return_to!;
  // Chosen first: the notify marker names the new handoff.
  const id = tx.snapshot.ids.next(tx.now());
  const opening = { status: spec.status, agent: ctx.agent, reason: boundedReason(spec.reason) };
  const record = newHandoffRecord(tx, ctx, opening, {
    handoff_id: id,
    task_id: done.task_id,
    from_agent: ctx.agent,
    to_agents: [to],
    owner_mode: 'single',
    summary: spec.summary.slice(0, LIMITS.summary),
    notes: spec.notes.slice(0, LIMITS.notes),
    files: done.files,
    branch: done.branch,
    commit: done.commit,
    return_to: null,
    parent_uid: done.uid ?? null,
    ...(spec.chain ? { chain: spec.chain } : {}),
    reason: 'return',
    result: done.result ?? null,
    previous_findings: done.result?.context_summary ?? null,
    // Carried so its review follows the same policy (require_user_approval, docs/agentsync-documentation.md).
    policy: spec.policy,
    // notify_on_return: the editor of the agent the work comes back to shows it (docs/agentsync-documentation.md).
    ...(shouldNotify(spec.policy, done.result) ? { notify: { agent: to, handoff: id } } : {}),
    ...(spec.status === 'ready_for_review' ? { claimed_by: to } : {}),
  });
  tx.insert(record);
  tx.audit.push(auditEntry({ ...ctx, action: spec.auditAction }, record, null, spec.status, `returned to ${to}`, record.created_at));
  renewWaitingHolder(tx, ctx, done);
  return record;
}

/**
 * Work that comes back to an agent still holding the handoff it passed it from ends that agent's wait: the held
 * handoff's lease starts again, so the agent has its full timeout to act on what came back (passTimeouts.ts).
 */
export function renewWaitingHolder(tx: StoreTransaction, ctx: ActionContext, done: Handoff): void {
  const held = done.parent_uid ? tx.find(done.parent_uid) : undefined;
  if (!held || held.status !== 'in_progress' || !held.claimed_by || held.claimed_by !== done.return_to || !held.lease_expires_at) return;
  let until: string;
  try {
    until = leaseUntil(tx, tx.now(), held, held.claimed_by);
  } catch {
    return; // a broken passOver section (E030): the lease stays as it was rather than a guessed one
  }
  applyFieldChange(tx, ctx, held, { lease_expires_at: until }, `lease renewed: ${done.handoff_id} came back to ${held.claimed_by}`);
}
