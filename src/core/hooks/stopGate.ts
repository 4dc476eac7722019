// The stop hook's rule (docs/agentsync-documentation.md, "Hook packs"): under requireHandoffOnEndSession, an agent that
// still holds claimed work (in progress, no report yet) is stopped once with what to do; the next stop passes.
// "Once" uses the vendor's loop flag where it has one, and a marker in .agentsync/hooks/ for every vendor.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { sessionTag } from './sessionTag';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import type { Handoff } from '../domain/handoffSchema';
import { isHolder, type AgentSession } from '../domain/agentSession';

/** The stop gate's marker, one per session of an agent (docs/contract.md §4); a session id is hashed into a safe name. */
export function stopMarkerFile(dataDir: string, agent: string, session: string | null = null): string {
  return path.join(dataDir, 'hooks', `stop-${agent}${sessionTag(session)}.json`);
}

export interface StopDecision {
  block: boolean;
  reason: string | null;
  held: string[];
}

/** What `agent` in `session` holds (docs/contract.md §4): another session's claims are not this session's to finish. */
export function heldWork(handoffs: readonly Handoff[], agent: string, session: AgentSession | null = null): Handoff[] {
  return handoffs.filter((h) => h.status === 'in_progress' && h.claimed_by === agent && isHolder(h, agent, session));
}

export function stopInstruction(agent: string, held: readonly Handoff[], configProblem: string | null): string {
  const ids = held.map((h) => h.handoff_id).join(', ');
  const first = held[0]?.handoff_id ?? '<id>';
  return [
    `AgentSync: ${agent} still holds ${ids} (claimed, in progress, no report yet) and this repository requires a handoff before a session ends ` +
      `(requireHandoffOnEndSession).`,
    ...(configProblem ? [`(.agentsync.json could not be used as written, so this rule applies until it is fixed: ${configProblem})`] : []),
    'Before you stop, do one of these for each handoff, e.g. with `agentsync request -` and the JSON on standard input:',
    `- finish it with a report: {"action":"completeHandoff","handoffId":"${first}","agent":"${agent}",` +
      '"result":{"status":"complete","decision":"PROCEED","context_summary":"<what was done, found, next; at most 500 tokens>","issues":[]}}',
    `- pass it to another agent: {"action":"passOver","handoffId":"${first}","agent":"${agent}","to":"<agent>","reason":"<why>","summary":"<what is left>"}`,
    `- or put it back in the queue: {"action":"transitionHandoff","handoffId":"${first}","agent":"${agent}","to":"queued","reason":"<why>"}`,
    'If you cannot do that now, say why in your reply; the next stop is let through.',
  ].join('\n');
}

interface Marker {
  session: string;
  held: string[];
}

function readMarker(file: string): Marker | null {
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Marker;
    return typeof m.session === 'string' && Array.isArray(m.held) ? m : null;
  } catch {
    return null;
  }
}

/**
 * Decides one stop. Blocks when the rule is on and work is held, unless this stop follows a block: the vendor
 * says so (`loopActive`) or the marker records a block for this session and the same held work. A pass removes
 * the marker, so the next stop with held work is blocked once again.
 */
export interface StopInput {
  required: boolean;
  held: readonly Handoff[];
  loopActive: boolean;
  session: string;
  /** The workspace root: every folder between it and the marker must be a real folder, never a symlink. */
  root: string;
  markerFile: string;
  instruction: string;
}

export function decideStop(opts: StopInput): StopDecision {
  const ids = opts.held.map((h) => h.handoff_id).sort();
  // A committed `.agentsync/hooks` link would make us delete or write the marker wherever it points: refused first.
  assertSafeDirectory(opts.root, path.dirname(opts.markerFile));
  const clear = () => fs.rmSync(opts.markerFile, { force: true });
  if (!opts.required || ids.length === 0) {
    clear();
    return { block: false, reason: null, held: ids };
  }
  const marker = readMarker(opts.markerFile);
  if (opts.loopActive || (marker && marker.session === opts.session && marker.held.join(',') === ids.join(','))) {
    clear();
    return { block: false, reason: null, held: ids };
  }
  ensureSafeDirectory(opts.root, path.dirname(opts.markerFile));
  writeFileAtomic(opts.markerFile, JSON.stringify({ session: opts.session, held: ids }) + '\n', { durable: false });
  return { block: true, reason: opts.instruction, held: ids };
}
