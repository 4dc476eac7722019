// The joined report of a fan-out (docs/contract.md §6, "Fan-out and join"): every child's outcome and report in one
// `result` of phase `parallel`, in the shape phaseFindings.ts checks, naming each child that did not come back.
import type { CompletionResult, Handoff } from './handoffSchema';
import { LIMITS } from './handoffSchema';
import { endingCode } from './passGroup';

/** Each child's findings are kept whole up to this share of the report's findings limit, else pointed at. */
const FINDINGS_SHARE = Math.floor((LIMITS.findingsBytes * 3) / 4);
const SUMMARY_CHARS = 3_500;

/** A child that came back with a clean, complete report. */
function passed(c: Handoff): boolean {
  const back = c.status === 'ready_for_review' || c.status === 'approved' || c.status === 'merged';
  return back && c.result?.status === 'complete' && c.result.decision === 'PROCEED';
}

/** How a child ended, in words: "returned (complete)", "timed out (E010 SUBAGENT_TIMEOUT)", "escalated: …", "withdrawn". */
export function childOutcome(c: Handoff): string {
  if (c.status === 'ready_for_review' || c.status === 'approved' || c.status === 'merged')
    return `returned (${c.result?.status ?? 'no report'})`;
  const last = c.state_history[c.state_history.length - 1]?.reason ?? null;
  const code = endingCode(last);
  if (code === 'E010 SUBAGENT_TIMEOUT' || code === 'E022 RETURN_TIMEOUT') return `timed out (${code})`;
  if (code === 'E011 SUBAGENT_CRASHED') return `its receiver's session ended (${code})`;
  if (c.status === 'escalated') return `escalated${code ? ` (${code})` : ''}: ${(last ?? '').slice(0, 300)}`;
  return c.status;
}

const who = (c: Handoff) => `${c.handoff_id} (${c.to_agents[0] ?? '?'})`;

export function joinedResult(children: readonly Handoff[]): CompletionResult {
  const share = Math.floor(FINDINGS_SHARE / children.length);
  const reports: Record<string, unknown> = {};
  for (const c of children) {
    const findings = c.result?.findings ?? {};
    const size = Buffer.byteLength(JSON.stringify(findings));
    reports[c.handoff_id] = {
      agent: c.to_agents[0] ?? null,
      outcome: childOutcome(c),
      ...(c.result ? { status: c.result.status, decision: c.result.decision } : {}),
      findings: size <= share ? findings : { omitted: `${size} bytes; see the report of ${c.handoff_id}` },
    };
  }
  const results = children.map((c) => ({
    task_id: c.handoff_id,
    passed: passed(c),
    type: c.to_agents[0] ?? '?',
    summary: childOutcome(c),
  }));
  const ok = results.filter((r) => r.passed).length;
  const per = Math.floor(SUMMARY_CHARS / children.length);
  const issues: string[] = [];
  for (const c of children) {
    if (!passed(c)) issues.push(`${who(c)} ${childOutcome(c)}`.slice(0, LIMITS.reason));
    for (const i of c.result?.issues ?? []) issues.push(`${c.handoff_id}: ${i}`.slice(0, LIMITS.reason));
  }
  return {
    phase: 'parallel',
    status: ok === children.length ? 'complete' : 'partial',
    decision: 'PROCEED',
    findings: {
      results,
      aggregation: { total: results.length, passed: ok, failed: results.length - ok, overall_passed: ok === results.length, rule: 'all' },
      reports,
    },
    context_summary: children.map((c) => `- ${who(c)}: ${(c.result?.context_summary ?? childOutcome(c)).slice(0, per)}`).join('\n'),
    issues: issues.slice(0, 100),
  };
}

/**
 * The joined return's summary: how many came back, each one that did not named. `size` is the group's: a child found
 * neither in the store nor in the archive (removed by hand) is still counted, as missing.
 */
export function joinedSummary(children: readonly Handoff[], size: number = children.length): string {
  const back = children.filter((c) => c.status === 'ready_for_review' || c.status === 'approved' || c.status === 'merged').length;
  const others = children.filter((c) => !(c.status === 'ready_for_review' || c.status === 'approved' || c.status === 'merged'));
  const named = others.map((c) => `${who(c)} ${childOutcome(c).replace(/:.*$/s, '')}`).join('; ');
  const missing = size > children.length ? `; ${size - children.length} not found in the store or the archive` : '';
  const count = Math.max(size, children.length);
  const text = `Joined return of ${count} parallel passes: ${back} returned${named ? `; ${named}` : ''}${missing}: ${children[0].summary}`;
  return text.slice(0, LIMITS.summary);
}
