// Plain-text rendering of handoffs for people at a terminal. Agent text is passed through visibleControls, so a
// newline cannot break the layout and an escape sequence cannot reach the terminal (see terminalText.ts).
import { displayAgent } from '../core/domain/agentId';
import type { Handoff } from '../core/domain/handoffSchema';
import { visibleControls as v } from './terminalText';

export function handoffLine(h: Handoff): string {
  const to = h.to_agents.map(displayAgent).join(',') || '-';
  const holder = h.claimed_by ? ` (claimed by ${displayAgent(h.claimed_by)})` : '';
  return `${h.handoff_id}  ${h.status.padEnd(16)} ${displayAgent(h.from_agent)} → ${to}  ${v(h.summary.replace(/\s+/g, ' ').slice(0, 80))}${holder}`;
}

export function handoffDetails(h: Handoff): string {
  const lines = [
    `${h.handoff_id}  (uid ${h.uid}, rev ${h.rev ?? 0})`,
    `status:   ${h.status}${h.claimed_by ? ` — claimed by ${h.claimed_by}` : ''}`,
    `from:     ${h.from_agent}    to: ${h.to_agents.join(', ') || '-'}    mode: ${h.owner_mode}`,
    `summary:  ${v(h.summary)}`,
  ];
  if (h.notes) lines.push(`notes:    ${v(h.notes)}`);
  if (h.task_id) lines.push(`task:     ${v(h.task_id)}`);
  if (h.files.length) lines.push(`files:    ${h.files.map(v).join(', ')}`);
  if (h.required_capabilities.length) lines.push(`needs:    ${h.required_capabilities.join(', ')}`);
  if (h.no_handoff_reason) lines.push(`skipped:  ${v(h.no_handoff_reason)}`);
  lines.push('history:');
  for (const e of h.state_history) lines.push(`  ${e.timestamp}  ${e.status.padEnd(16)} ${e.agent}${e.reason ? `  ${v(e.reason)}` : ''}`);
  return lines.join('\n');
}
