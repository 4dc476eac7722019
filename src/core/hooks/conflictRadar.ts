// The conflict radar (docs/contract.md §10a; docs/agentsync-documentation.md, "Conflict radar"): before an agent's tool
// writes a file, the live claims of other agents that list that file. It runs before every tool call, so it reads the
// store without schema validation and parses only the records that name the file (storeScan.ts).
import { canonicalRelativePath } from '../domain/canonicalPath';
import { recordsContaining } from './storeScan';
import { hookView } from './hookReaders';
import { holderText, isHolder, type AgentSession } from '../domain/agentSession';

export type RadarMode = 'warn' | 'deny' | 'off';
export const RADAR_MODES: readonly RadarMode[] = ['warn', 'deny', 'off'];

export interface RadarHit {
  file: string;
  agent: string;
  /** The holder as messages name it: the agent, and its session and worktree when the claim recorded them. */
  holder: string;
  handoffId: string;
  since: string;
  summary: string;
}

interface ClaimFields {
  handoff_id?: unknown;
  status?: unknown;
  claimed_by?: unknown;
  claimed_at?: unknown;
  claimed_session?: unknown;
  lease_expires_at?: unknown;
  files?: unknown;
  summary?: unknown;
}

/** A record's `claimed_session` as the store text holds it, read without the schema (null when absent or malformed). */
export function sessionFieldOf(v: unknown): AgentSession | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as Record<string, unknown>;
  if (typeof s.worktree !== 'string') return null;
  return { id: typeof s.id === 'string' ? s.id : null, worktree: s.worktree, branch: typeof s.branch === 'string' ? s.branch : null };
}

/**
 * Live claims that list one of `files` (workspace-relative, `/`-separated) and that `agent` in `session` does not hold:
 * another agent's, or another session's of the same agent (docs/contract.md §4). In progress, lease not yet expired.
 * Paths are compared in canonical form (domain/canonicalPath.ts): a record stored before that rule, or merged in, may
 * list `./src/a.ts` or `src\\a.ts`, so the records are found by the file's last segment, which every spelling contains.
 */
export function radarHits(
  store: Buffer | string,
  files: readonly string[],
  agent: string,
  nowMs: number,
  session: AgentSession | null = null,
): RadarHit[] {
  const hits: RadarHit[] = [];
  for (const given of files) {
    const file = canonicalRelativePath(given);
    const last = file.slice(file.lastIndexOf('/') + 1);
    if (!last) continue;
    for (const h of hookView('conflictRadar', recordsContaining(store, [JSON.stringify(last).slice(1, -1)])) as ClaimFields[]) {
      if (!h || h.status !== 'in_progress' || typeof h.claimed_by !== 'string') continue;
      const listed = Array.isArray(h.files) && h.files.some((f) => typeof f === 'string' && canonicalRelativePath(f) === file);
      if (!listed || typeof h.handoff_id !== 'string') continue;
      const held = { handoff_id: h.handoff_id, claimed_by: h.claimed_by, claimed_session: sessionFieldOf(h.claimed_session) };
      if (isHolder(held, agent, session)) continue;
      const until = typeof h.lease_expires_at === 'string' ? Date.parse(h.lease_expires_at) : NaN;
      if (!(until > nowMs)) continue;
      hits.push({
        file,
        agent: h.claimed_by,
        holder: holderText(held),
        handoffId: h.handoff_id,
        since: typeof h.claimed_at === 'string' ? h.claimed_at : '',
        summary: typeof h.summary === 'string' ? h.summary : '',
      });
    }
  }
  return hits;
}

/** One line per hit, as data: the agent's own text (the summary) folded to one line and quoted. */
export function radarText(hits: readonly RadarHit[], mode: 'before' | 'after' | 'deny'): string {
  // eslint-disable-next-line no-control-regex -- folding control characters out of agent-written text is the point
  const fold = (s: string) => JSON.stringify(s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').slice(0, 200));
  const lines = hits.map(
    (h) =>
      `- ${h.file}: claimed by ${h.holder} in ${h.handoffId} since ${h.since || 'an unknown time'} (lease live; summary, as data: ${fold(h.summary)})`,
  );
  const head =
    mode === 'deny'
      ? 'AgentSync conflict radar: this edit is refused (.agentsync.json "radar": "deny"). Another agent or session holds a live claim on:'
      : 'AgentSync conflict radar: another agent or session holds a live claim on the file this tool ' +
        `${mode === 'before' ? 'is about to write' : 'just wrote'}:`;
  const tail =
    mode === 'deny'
      ? 'Coordinate first: wait for that handoff, or ask its holder, e.g. with `agentsync show <id>` and a handoff of your own.'
      : 'Check with `agentsync show <id>` before going on; editing it too means two agents (or two sessions) change the same file.';
  return [head, ...lines, tail].join('\n');
}

/** The `radar` key of .agentsync.json's text: "warn" (the default, and for a file that cannot be read), "deny" or "off". */
export function radarModeOf(configText: string | null): RadarMode {
  if (configText === null) return 'warn';
  try {
    const v = (JSON.parse(configText) as { radar?: unknown }).radar;
    return (RADAR_MODES as readonly unknown[]).includes(v) ? (v as RadarMode) : 'warn';
  } catch {
    return 'warn';
  }
}
