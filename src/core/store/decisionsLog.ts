// decisions.md: one line when a handoff reaches merged, escalated or withdrawn (docs/contract.md §2), with the agent, task_id,
// outcome and notes. The columns of docs/agentsync-documentation.md ("Audit log and decisions") come first, in their order, so
// readers of the six-column lines still work; task_id and notes follow.
import * as fs from 'node:fs';
import { assertRegularOrMissing, writeFileAtomic } from '../disk/atomicFile';
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

/** The columns after timestamp, id and agent: what a handoff's line says of it, whichever id it had. */
const said = (line: string): string => line.split(' | ').slice(3).join(' | ');

/**
 * A finished handoff a merge renumbered (it was archived here, and the upstream published another handoff under its
 * id: docs/contract.md §8) still has its line under its old id, which now names the other handoff. That line (the
 * old id, and the same summary, decision, outcome, task and notes) is rewritten to name its new id, keeping its
 * timestamp and agent. Returns the ids whose line was found; the whole file is read only when a candidate has
 * previous ids. The line can only be this clone's own, unpublished one: the upstream's handoff kept the id.
 */
export function renameMovedDecisions(file: string, missing: readonly Handoff[]): Set<string> {
  const renamed = new Set<string>();
  const moved = missing.filter((h) => h.previous_ids?.length);
  if (moved.length === 0) return renamed;
  assertRegularOrMissing(file);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return renamed;
  }
  const lines = text.split('\n');
  for (const h of moved) {
    const olds = new Set(h.previous_ids);
    const says = said(decisionLine(h, '', '').trimEnd());
    const at = lines.findIndex((l) => olds.has(l.split(' | ')[1]) && said(l) === says);
    if (at < 0) continue;
    const cells = lines[at].split(' | ');
    cells[1] = h.handoff_id;
    lines[at] = cells.join(' | ');
    renamed.add(h.handoff_id);
  }
  if (renamed.size) writeFileAtomic(file, lines.join('\n'));
  return renamed;
}
