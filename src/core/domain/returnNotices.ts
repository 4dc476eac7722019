// notify_on_return (docs/agentsync-documentation.md, "Pass-over delegation"): which returned work an agent is told
// about, once each. The editor feeds every store change of a folder to one ReturnNotices and shows what it hands out.
import { isReturnedWork } from './lifecycle';
import { isTerminal, type CompletionResult, type Handoff } from './handoffSchema';

/** A report with something to look at: not complete, issues, a finding above info, or no report at all. */
function reportHasIssues(result: CompletionResult | null | undefined): boolean {
  if (!result) return true;
  const findings = result.artifacts?.findings ?? [];
  return result.status !== 'complete' || result.issues.length > 0 || findings.some((f) => f.severity !== 'info');
}

/**
 * Whether returned work asks to be announced, by the policy stored on it: true / "always" → yes; "only_issues" →
 * when its report has issues; false / "never" → no. A record without a stored policy follows the built-in (true).
 */
export function notifiesOnReturn(h: Handoff): boolean {
  if (!isReturnedWork(h) || isTerminal(h.status)) return false;
  const mode = h.policy?.notify_on_return ?? true;
  if (mode === 'only_issues') return reportHasIssues(h.result);
  return mode === true || mode === 'always';
}

/**
 * Hands out each return to announce once. The first call only records what is already there: returns that came
 * back before the window opened are in the tree, not in a notification.
 */
export class ReturnNotices {
  private readonly seen = new Set<string>();
  private primed = false;

  /** The returned handoffs for `me` that appeared since the last call and ask to be announced. */
  take(handoffs: readonly Handoff[], me: string): Handoff[] {
    const fresh: Handoff[] = [];
    for (const h of handoffs) {
      if (!isReturnedWork(h)) continue;
      const key = h.uid ?? h.handoff_id;
      if (this.seen.has(key)) continue;
      this.seen.add(key); // whoever it is for: a later change of agentsync.agentId does not replay old returns
      if (this.primed && h.to_agents[0] === me && notifiesOnReturn(h)) fresh.push(h);
    }
    this.primed = true;
    return fresh;
  }
}
