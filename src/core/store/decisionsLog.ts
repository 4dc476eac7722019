// decisions.md: one line when a handoff reaches merged, escalated or withdrawn (docs/contract.md §2), with the agent, task_id,
// outcome and notes. The columns of docs/agentsync-documentation.md ("Audit log and decisions") come first, in their order, so
// readers of the six-column lines still work; task_id and notes follow.
import type { Handoff } from '../domain/handoffSchema';

// eslint-disable-next-line no-control-regex -- matching control characters is the purpose
const BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

function cell(text: string | null | undefined): string {
  return (text ?? '').replace(BREAKS_AND_CONTROLS, ' ').replace(/\|/g, '\\|').trim().slice(0, 500) || '-';
}

/** `timestamp | handoff_id | agent | context_summary | decision | outcome | task_id | notes` */
export function decisionLine(h: Handoff, agent: string, timestamp: string): string {
  const summary = h.result?.context_summary ?? h.summary;
  const decision = h.result?.decision ?? '-';
  return `${timestamp} | ${h.handoff_id} | ${agent} | ${cell(summary)} | ${decision} | ${h.status} | ${cell(h.task_id)} | ${cell(h.notes)}\n`;
}

export const DECISIONS_HEADER =
  '# Decisions\n\ntimestamp | handoff_id | agent | context_summary | decision | outcome | task_id | notes\n--- | --- | --- | --- | --- | --- | --- | ---\n';
