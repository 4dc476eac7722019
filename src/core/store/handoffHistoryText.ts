// The history of one handoff as a Markdown document (docs/agentsync-documentation.md, "Show History"): who it is for,
// its chain, its completion report, every state_history entry and every audit line about it, refusals included.
// Agent text goes through the tracker's inlineText, so it cannot add lines, headings or Markdown.
import { sessionWhere } from '../domain/agentSession';
import { displayAgent } from '../domain/agentId';
import type { AuditEntry } from './auditLog';
import { chainIndex, chainLines } from '../domain/handoffChains';
import type { Handoff } from '../domain/handoffSchema';
import { summarizeReport } from '../domain/reportSummary';
import { inlineText } from '../domain/trackerRenderer';

const TEXT_MAX = 2_000;
const t = (s: string) => inlineText(s, TEXT_MAX);
const status = (s: string | null) => (s ? s.replace(/_/g, ' ') : '-');

function reportSection(h: Handoff): string[] {
  if (!h.result) return [];
  const r = summarizeReport(h.result);
  const out = ['', '## Completion report', '', `**${t(r.headline)}**`, ''];
  if (r.contextSummary) out.push(t(r.contextSummary), '');
  if (r.findings.length) out.push('Findings:', '', ...r.findings.map((f) => `- ${t(f)}`), '');
  if (r.issues.length) out.push('Issues:', '', ...r.issues.map((i) => `- ${t(i)}`), '');
  if (r.artifactCounts) out.push(`Artifact findings: ${r.artifactCounts}`, '', ...r.artifactFindings.map((f) => `- ${t(f)}`), '');
  return out.slice(0, -1);
}

/** Audit lines come from committed files anyone could have edited: every field is shown as text, whatever its type. */
function auditLine(e: AuditEntry): string {
  const f = (v: unknown) => t(v === null || v === undefined ? '-' : typeof v === 'string' ? v : JSON.stringify(v));
  const who = `${f(e.action)} by ${typeof e.agent === 'string' ? t(displayAgent(e.agent)) : '-'} via ${f(e.surface)}`;
  const change = `${f(e.from_status).replace(/\\_/g, ' ')} → ${f(e.to_status).replace(/\\_/g, ' ')}`;
  const what = e.refused ? `refused (${f(e.reason)})` : `${change}${e.reason ? `: ${f(e.reason)}` : ''}`;
  return `- ${f(e.ts)} ${who}: ${what}`;
}

/** `handoffs` is the folder's list (for the chain); `audit` the lines about `h`, oldest first (HandoffStore.auditFor). */
export function renderHandoffHistory(h: Handoff, handoffs: readonly Handoff[], audit: readonly AuditEntry[]): string {
  const owners = h.to_agents.map(displayAgent).join(', ') || 'unassigned';
  const lines = [
    `# ${h.handoff_id}: ${t(h.summary.split('\n')[0])}`,
    '',
    `- Status: ${status(h.status)} · rev ${h.rev ?? 0}${h.claimed_by ? ` · claimed by ${displayAgent(h.claimed_by)}${sessionWhere(h.claimed_session)}` : ''}`,
    `- From ${displayAgent(h.from_agent)} to ${owners} (${h.owner_mode})`,
  ];
  const chain = chainLines(h, chainIndex(handoffs));
  if (chain.length) lines.push('', '## Chain', '', ...chain.map((c) => `- ${t(c)}`));
  lines.push(...reportSection(h));
  lines.push('', `## History (${h.state_history.length} entr${h.state_history.length === 1 ? 'y' : 'ies'}, oldest first)`, '');
  for (const e of h.state_history) {
    const req = e.request_id ? ` (request ${t(e.request_id)})` : '';
    lines.push(`- ${e.timestamp} ${status(e.status)} by ${displayAgent(e.agent)}${e.reason ? `: ${t(e.reason)}` : ''}${req}`);
  }
  lines.push('', `## Audit log (${audit.length} line${audit.length === 1 ? '' : 's'} in .agentsync/audit/, oldest first)`, '');
  if (audit.length === 0) lines.push('_No audit lines: written before the audit existed, or removed by audit.retention_days._');
  for (const e of audit) lines.push(auditLine(e));
  return lines.join('\n') + '\n';
}
