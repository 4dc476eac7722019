// The hover of a handoff in the tree: who, what, why stale, merge conflicts, notes, the request, the completion report (decision,
// status, findings summarised, issues, context summary), the chain, and the last history entries. Every piece of
// agent text goes through literal(), so it shows as text, never as Markdown (docs/agentsync-documentation.md).
import { sessionWhere } from '../../core/domain/agentSession';
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import type { Handoff } from '../../core/domain/handoffSchema';
import { summarizeReport } from '../../core/domain/reportSummary';
import { STATUS_ICONS, statusLabel } from './statusIcons';

/** Agent-written text as literal Markdown: control characters escaped, line breaks kept, spaces left to wrap. */
export function literal(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~$&]/g, '\\$&').replace(/\r?\n/g, '  \n');
}

/** How a merge-conflict value reads in one line (JSON, shortened). */
export function conflictValue(v: unknown): string {
  const text = v === undefined ? '(none)' : (JSON.stringify(v) ?? `(${typeof v})`);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function agents(ids: readonly string[]): string {
  return ids.length ? ids.map(displayAgent).join(', ') : '(nobody yet)';
}

/** A bold title and a bullet per line (each line literal), then a blank line; nothing when there are no lines. */
function list(md: vscode.MarkdownString, title: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  md.appendMarkdown(`${title}\n\n`);
  for (const l of lines) md.appendMarkdown(`- ${literal(l)}\n`);
  md.appendMarkdown('\n');
}

function header(md: vscode.MarkdownString, h: Handoff): void {
  md.appendMarkdown(`**${h.handoff_id}** · $(${STATUS_ICONS[h.status].codicon}) ${statusLabel(h.status)}`);
  if (h.priority) md.appendMarkdown(` · priority ${h.priority}`);
  md.appendMarkdown('\n\n');
  md.appendMarkdown(literal(h.summary));
  md.appendMarkdown('\n\n');
  md.appendMarkdown(literal(`From ${displayAgent(h.from_agent)} to ${agents(h.to_agents)} (${h.owner_mode})`));
  if (h.required_capabilities.length) md.appendMarkdown(literal(` · needs ${h.required_capabilities.join(', ')}`));
  if (h.claimed_by)
    md.appendMarkdown(
      literal(
        ` · claimed by ${displayAgent(h.claimed_by)}${sessionWhere(h.claimed_session)}${h.lease_expires_at ? ` until ${h.lease_expires_at}` : ''}`,
      ),
    );
  if (h.task_id || h.branch)
    md.appendMarkdown(literal(`${h.task_id ? ` · task ${h.task_id}` : ''}${h.branch ? ` · branch ${h.branch}` : ''}`));
  md.appendMarkdown('\n\n');
}

/** The request side (docs/contract.md §6): what the receiver was asked to do. */
function request(md: vscode.MarkdownString, h: Handoff): void {
  if (!h.request && !h.phase) return;
  const r = h.request ?? {};
  const rows: [string, string | null | undefined][] = [
    ['Feature', r.feature],
    ['Spec', r.spec_path],
    ['Expected output', r.expected_output],
    ['Constraints', r.constraints?.join('; ')],
    ['Instructions', r.instructions],
  ];
  md.appendMarkdown(`**Request**${h.phase ? ` (${h.phase} phase)` : ''}\n\n`);
  for (const [label, value] of rows) if (value) md.appendMarkdown(`- ${label}: ${literal(value)}\n`);
  md.appendMarkdown('\n');
}

function report(md: vscode.MarkdownString, h: Handoff): void {
  if (!h.result) return;
  const r = summarizeReport(h.result);
  md.appendMarkdown(`**Result:** ${literal(r.headline)}\n\n`);
  if (r.contextSummary) md.appendMarkdown(`${literal(r.contextSummary)}\n\n`);
  list(md, '**Findings**', r.findings);
  list(md, '**Issues**', r.issues);
  if (r.artifactCounts) list(md, `**Artifact findings:** ${literal(r.artifactCounts)}`, r.artifactFindings);
}

function history(md: vscode.MarkdownString, h: Handoff): void {
  const last = h.state_history.slice(-10);
  const of = h.state_history.length > last.length ? ` (last ${last.length} of ${h.state_history.length})` : '';
  list(
    md,
    `**History**${of}`,
    last.map(
      (e) =>
        `${e.timestamp.replace('T', ' ').slice(0, 16)} ${statusLabel(e.status)} by ${displayAgent(e.agent)}${e.reason ? `: ${e.reason}` : ''}`,
    ),
  );
}

/** `chain`: the handoff's chain in words (core handoffChains.chainLines), empty when it is in none. */
export function handoffTooltip(h: Handoff, stale: string | null, chain: readonly string[] = []): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  header(md, h);
  if (stale) md.appendMarkdown(`$(warning) **Stale:** ${literal(stale)}\n\n`);
  if (h.conflicts?.length) {
    list(
      md,
      '$(warning) **Merge conflicts** (a human checks and clears them)',
      h.conflicts.map(
        (c) => `${c.field}: ours ${conflictValue(c.ours)}, theirs ${conflictValue(c.theirs)}, kept ${conflictValue(c.resolved_to)}`,
      ),
    );
  }
  if (h.no_handoff_reason) md.appendMarkdown(`**Skipped:** ${literal(h.no_handoff_reason)}\n\n`);
  if (h.notes) md.appendMarkdown(`**Notes**\n\n${literal(h.notes)}\n\n`);
  request(md, h);
  report(md, h);
  list(md, '**Chain**', chain);
  history(md, h);
  return md;
}
