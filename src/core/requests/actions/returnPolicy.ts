// What the policy stored on passed-over work does when the work comes back (docs/agentsync-documentation.md,
// "Pass-over policies"): notify_on_return marks the return for the editor of the agent it goes to, and auto_apply
// merges the finished work without the originator's review when the report says it is done and clean.
import { applyStatusChange, type ActionContext } from '../../store/handoffMutation';
import type { PassOverPolicy } from '../../domain/configSchema';
import type { CompletionResult, Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';
import { SYSTEM_AGENT } from '../../domain/agentId';
import { acceptRemaining } from '../../domain/fileReview';

export interface NotifyMarker {
  agent: string;
  handoff: string;
}

/** A report with something to look at: issues, a finding above info, not complete, or no report at all. */
export function reportHasIssues(result: CompletionResult | null | undefined): boolean {
  if (!result) return true;
  const findings = result.artifacts?.findings ?? [];
  return result.status !== 'complete' || result.issues.length > 0 || findings.some((f) => f.severity !== 'info');
}

/** notify_on_return: true / "always" → always; "only_issues" → when the report has issues; false / "never" → never. */
export function shouldNotify(policy: PassOverPolicy, result: CompletionResult | null | undefined): boolean {
  const mode = policy.notify_on_return ?? true;
  if (mode === 'only_issues') return reportHasIssues(result);
  return mode === true || mode === 'always';
}

/** auto_apply applies only to a clean report: complete, PROCEED, no issues, no critical finding; never under require_user_approval. */
export function appliesWithoutReview(policy: PassOverPolicy, result: CompletionResult | null | undefined): boolean {
  if (policy.auto_apply !== true || policy.require_user_approval === true || !result) return false;
  const critical = (result.artifacts?.findings ?? []).some((f) => f.severity === 'critical');
  return result.status === 'complete' && result.decision === 'PROCEED' && result.issues.length === 0 && !critical;
}

/**
 * The finished work (`done`, in ready_for_review) is approved and merged by AgentSync itself when its policy has
 * auto_apply and the report is clean; returns the merged record, or null when it waits for review as usual.
 */
export function applyOnReturn(tx: StoreTransaction, ctx: ActionContext, done: Handoff, policy: PassOverPolicy): Handoff | null {
  if (done.status !== 'ready_for_review' || !appliesWithoutReview(policy, done.result)) return null;
  const system = { ...ctx, agent: SYSTEM_AGENT };
  const why = `auto_apply: ${done.to_agents.join(', ')}'s report is complete, PROCEED, without issues`;
  // auto_apply accepts every file the report lists (docs/contract.md §6, "Per-file review").
  const result = acceptRemaining(done, SYSTEM_AGENT, tx.now().toISOString());
  const approved = applyStatusChange(tx, system, done, 'approved', `${why}; approved without review`, result ? { result } : {});
  return applyStatusChange(tx, system, approved, 'merged', `${why}; merged without review`);
}
