// Plain-text rendering of handoffs for people at a terminal.
import { displayAgent } from '../core/agentId';
import type { Handoff } from '../core/handoffSchema';

export function handoffLine(h: Handoff): string {
  const to = h.to_agents.map(displayAgent).join(',') || '-';
  const holder = h.claimed_by ? ` (claimed by ${displayAgent(h.claimed_by)})` : '';
  return `${h.handoff_id}  ${h.status.padEnd(16)} ${displayAgent(h.from_agent)} → ${to}  ${h.summary.replace(/\s+/g, ' ').slice(0, 80)}${holder}`;
}

export function handoffDetails(h: Handoff): string {
  const lines = [
    `${h.handoff_id}  (uid ${h.uid}, rev ${h.rev ?? 0})`,
    `status:   ${h.status}${h.claimed_by ? ` — claimed by ${h.claimed_by}` : ''}`,
    `from:     ${h.from_agent}    to: ${h.to_agents.join(', ') || '-'}    mode: ${h.owner_mode}`,
    `summary:  ${h.summary}`,
  ];
  if (h.notes) lines.push(`notes:    ${h.notes}`);
  if (h.task_id) lines.push(`task:     ${h.task_id}`);
  if (h.files.length) lines.push(`files:    ${h.files.join(', ')}`);
  if (h.required_capabilities.length) lines.push(`needs:    ${h.required_capabilities.join(', ')}`);
  if (h.no_handoff_reason) lines.push(`skipped:  ${h.no_handoff_reason}`);
  lines.push('history:');
  for (const e of h.state_history) lines.push(`  ${e.timestamp}  ${e.status.padEnd(16)} ${e.agent}${e.reason ? `  ${e.reason}` : ''}`);
  return lines.join('\n');
}
