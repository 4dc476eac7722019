// How a hot file's holders are named in the explorer tooltip and the open-file warning.
import { displayAgent } from '../../core/domain/agentId';
import type { HotFileHolder } from '../../core/domain/hotFiles';

function quoted(summary: string): string {
  const line = summary.split('\n')[0].trim();
  return `“${line.length > 80 ? `${line.slice(0, 79)}…` : line}”`;
}

const VERB: Readonly<Record<string, string>> = {
  in_progress: 'is working on',
  blocked: 'is blocked on',
  ready_for_review: 'waits for the review of',
  approved: 'waits for the merge of',
};

/** "Claude is working on HO-20261123-002 “Review the fix” (uid 01K…)". */
export function holderText(h: HotFileHolder): string {
  const what = `${h.handoff_id} ${quoted(h.summary)}${h.uid ? ` (uid ${h.uid})` : ''}`;
  if (h.via === 'session') return `${displayAgent(h.agent)}'s open session was started from ${what}`;
  return `${displayAgent(h.agent)} ${VERB[h.status] ?? 'holds'} ${what}`;
}

export function holdersText(holders: readonly HotFileHolder[]): string {
  return holders.map(holderText).join('; ');
}

/** The agents, for "ask Claude and Codex first". */
export function agentsText(holders: readonly HotFileHolder[]): string {
  const names = [...new Set(holders.map((h) => displayAgent(h.agent)))];
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
