// The handoff that carries passed-over work's result back to its originator (docs/contract.md §6).
import { auditEntry, requestMark, type ActionContext } from '../../store/handoffMutation';
import { newUid } from '../../domain/handoffIds';
import { resolvePassOverPolicy } from '../../domain/passOverPolicy';
import { shouldNotify } from './returnPolicy';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

/** Creates the handoff that carries `done`'s result back to `done.return_to`. */
export function createReturnHandoff(tx: StoreTransaction, ctx: ActionContext, done: Handoff, note: string | null): Handoff {
  const to = done.return_to!;
  // The policy stored at pass time (inline override included) governs the return; older records resolve it now.
  const policy = done.policy ?? resolvePassOverPolicy(tx.config, to, ctx.agent);
  const status = policy.auto_return ? 'ready_for_review' : 'queued';
  const now = tx.now();
  const ts = now.toISOString();
  const id = tx.snapshot.ids.next(now);
  const summary = `Returned by ${ctx.agent}: ${done.result?.context_summary || done.summary}`.slice(0, 2_000);
  const record: Handoff = {
    handoff_id: id,
    task_id: done.task_id,
    from_agent: ctx.agent,
    to_agents: [to],
    owner_mode: 'single',
    status,
    required_capabilities: [],
    summary,
    notes: note ?? '',
    no_handoff_reason: null,
    files: done.files,
    branch: done.branch,
    commit: done.commit,
    prior_attempts: 0,
    created_at: ts,
    updated_at: ts,
    state_history: [{ status, agent: ctx.agent, timestamp: ts, reason: `returned from ${done.handoff_id}`, ...requestMark(ctx) }],
    uid: newUid(now.getTime()),
    rev: 1,
    return_to: null,
    parent_uid: done.uid ?? null,
    chain: done.chain,
    reason: 'return',
    result: done.result ?? null,
    previous_findings: done.result?.context_summary ?? null,
    // Carried so its review follows the same policy (require_user_approval, docs/agentsync-documentation.md).
    policy,
    // notify_on_return: the editor of the agent the work comes back to shows it (docs/agentsync-documentation.md).
    ...(shouldNotify(policy, done.result) ? { notify: { agent: to, handoff: id } } : {}),
    ...(status === 'ready_for_review' ? { claimed_by: to } : {}),
  };
  tx.insert(record);
  tx.audit.push(auditEntry({ ...ctx, action: 'returnHandoff' }, record, null, status, `returned to ${to}`, ts));
  return record;
}
