// Plain-text rendering of handoffs for people at a terminal. Agent text is passed through visibleControls, so a
// newline cannot break the layout and an escape sequence cannot reach the terminal (see terminalText.ts).
import { displayAgent } from '../core/domain/agentId';
import { holderText, sessionWhere } from '../core/domain/agentSession';
import type { Handoff } from '../core/domain/handoffSchema';
import type { TagOutcome } from '../core/requests/actions/noteTags';
import { visibleControls as v } from './terminalText';

export function handoffLine(h: Handoff): string {
  const to = h.to_agents.map(displayAgent).join(',') || '-';
  const holder = h.claimed_by ? ` (claimed by ${displayAgent(h.claimed_by)}${v(sessionWhere(h.claimed_session))})` : '';
  return `${h.handoff_id}  ${h.status.padEnd(16)} ${displayAgent(h.from_agent)} → ${to}  ${v(h.summary.replace(/ {2,}/g, ' ').slice(0, 80))}${holder}`;
}

/** When the paths given were stored in another spelling (the one path rule, docs/contract.md §3): what was stored. */
export function storedFilesLine(given: readonly string[] | undefined, h: Handoff): string {
  if (!given || given.every((f) => h.files.includes(f))) return '';
  return `\nfiles stored as: ${h.files.map((f) => v(f)).join(', ')}`;
}

/** `worktreeNotes`: what this clone knows of its worktree (worktree_gone, the merged offer), said under its worktree line. */
export function handoffDetails(h: Handoff, worktreeNotes: readonly string[] = []): string {
  const lines = [
    `${h.handoff_id}  (uid ${h.uid}, rev ${h.rev ?? 0})`,
    `status:   ${h.status}${h.claimed_by ? ` — claimed by ${v(holderText(h))}` : ''}`,
    `from:     ${h.from_agent}    to: ${h.to_agents.join(', ') || '-'}    mode: ${h.owner_mode}`,
    `summary:  ${v(h.summary)}`,
  ];
  if (h.notes) lines.push(`notes:    ${v(h.notes)}`);
  if (h.task_id) lines.push(`task:     ${v(h.task_id)}`);
  if (h.files.length) lines.push(`files:    ${h.files.map(v).join(', ')}`);
  if (h.worktree) lines.push(`worktree: ${v(h.worktree.name)} (branch ${v(h.worktree.branch)}, from ${h.worktree.commit.slice(0, 12)})`);
  for (const note of worktreeNotes) lines.push(`          ${v(note)}`);
  if (h.required_capabilities.length) lines.push(`needs:    ${h.required_capabilities.join(', ')}`);
  if (h.no_handoff_reason) lines.push(`skipped:  ${v(h.no_handoff_reason)}`);
  if (h.return_to || h.chain?.length)
    lines.push(`pass:     returns to ${h.return_to ?? '-'}    chain: ${(h.chain ?? []).join(' → ') || '-'}`);
  if (h.phase) lines.push(`phase:    ${h.phase}`);
  const r = h.request;
  if (r?.feature) lines.push(`feature:  ${v(r.feature)}`);
  if (r?.spec_path) lines.push(`spec:     ${v(r.spec_path)}`);
  if (r?.expected_output) lines.push(`expects:  ${r.expected_output}`);
  for (const c of r?.constraints ?? []) lines.push(`must:     ${v(c)}`);
  if (r?.instructions) lines.push(`do:       ${v(r.instructions)}`);
  if (h.previous_findings) lines.push(`previous: ${v(h.previous_findings)}`);
  if (h.result) lines.push(`result:   ${h.result.decision} (${h.result.status}): ${v(h.result.context_summary)}`);
  lines.push('history:');
  for (const e of h.state_history) lines.push(`  ${e.timestamp}  ${e.status.padEnd(16)} ${e.agent}${e.reason ? `  ${v(e.reason)}` : ''}`);
  return lines.join('\n');
}

/** What became of a tag in a created note ([pass_over: x] / [return_to: y]), as a second line, or nothing. */
export function tagLine(tag: TagOutcome | undefined): string {
  if (!tag) return '';
  if (tag.ok) return `\n[${tag.tag}: ${tag.agent}] accepted: the note is the ${tag.action === 'passOver' ? 'pass over' : 'return'}`;
  return `\n[${tag.tag}: ${tag.agent}] refused: ${tag.reason}${tag.code ? ` (${tag.code})` : ''}: ${v(tag.message ?? '')}`;
}
