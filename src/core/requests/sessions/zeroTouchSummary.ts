// The summary a zero-touch End Session writes without asking anything (docs/agentsync-documentation.md, "Zero-touch
// sessions"): built only from git (branch, commit, changed files) and the session (start, goal, the handoff it was
// started from). Deterministic: the same inputs give the same text, byte for byte, so it can be tested and diffed.
import { displayAgent } from '../../domain/agentId';
import { LIMITS, type Handoff } from '../../domain/handoffSchema';
import { checkWorkspaceRelative } from '../../domain/workspacePath';
import { durationText } from './durationText';
import type { SessionRecord } from './sessionState';

export interface ZeroTouchInput {
  agent: string;
  git: { branch: string | null; commit: string | null; hotFiles: readonly string[] };
  /** The agent's active session, if one was open. */
  session: SessionRecord | null;
  /** The handoff that session was started from, if any. */
  handoff: Handoff | null;
  endedAt: Date;
}

export interface ZeroTouchSummary {
  /** endSession's `summary` (state.json's lastSession, the tracker's Last Session). */
  sessionSummary: string;
  /** The handoff's one-line summary. */
  handoffSummary: string;
  /** The handoff's notes: what the next agent needs to know. */
  notes: string;
  /** The changed files a handoff may record, sorted. */
  files: string[];
}

const LISTED_FILES = 50;
const QUOTED_NOTES = 1_000;

/** One line, at most `max` characters (with "…" when cut). */
function line(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Code-unit order: the same on every machine and locale. */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function where(git: ZeroTouchInput['git']): string {
  return `${git.branch ?? 'no branch'}${git.commit ? ` @ ${git.commit}` : ''}`;
}

function fileList(files: readonly string[]): string {
  const shown = files.slice(0, LISTED_FILES).join(', ');
  return files.length > LISTED_FILES ? `${shown}, … and ${files.length - LISTED_FILES} more` : shown;
}

function goalOf(input: ZeroTouchInput): string | null {
  const goal = input.session?.goal.trim();
  return goal && goal !== 'Session started' ? goal : null;
}

function headline(input: ZeroTouchInput, files: readonly string[]): string {
  const changed = `${files.length} file${files.length === 1 ? '' : 's'} changed on ${input.git.branch ?? 'no branch'}`;
  if (input.handoff) return `Follow up ${input.handoff.handoff_id} (${line(input.handoff.summary, 300)}): ${changed}`;
  const goal = goalOf(input);
  if (goal) return `${line(goal, 300)}: ${changed}`;
  return `${displayAgent(input.agent)}'s session: ${changed}`;
}

export function zeroTouchSummary(input: ZeroTouchInput): ZeroTouchSummary {
  const files = [...new Set(input.git.hotFiles)]
    .filter((f) => checkWorkspaceRelative(f) === null)
    .sort(byCodeUnit)
    .slice(0, LIMITS.files);
  const { session, handoff } = input;
  const ended = input.endedAt.toISOString();
  const notes: string[] = [`Ended by ${displayAgent(input.agent)} with zero-touch End Session at ${ended}; nothing was asked.`];
  if (session) {
    const started = Date.parse(session.startedAt);
    const took = Number.isFinite(started) ? ` (${durationText(input.endedAt.getTime() - started)})` : '';
    notes.push(
      `Session ${session.id || '(no id)'}: started ${session.startedAt || 'at an unknown time'}${took}; goal: ${line(session.goal, 500)}`,
    );
  } else notes.push('No session was open for this agent.');
  if (handoff) {
    notes.push(`Started from ${handoff.handoff_id}${handoff.uid ? ` (${handoff.uid})` : ''}: ${line(handoff.summary, 500)}`);
    const open = (handoff.todos ?? []).filter((t) => t.status === 'pending' || t.status === 'in_progress');
    if (open.length) notes.push(`Open todos: ${open.map((t) => `[${t.status}] ${line(t.content, 200)}`).join('; ')}`);
    if (handoff.notes.trim()) notes.push(`Its notes: ${line(handoff.notes, QUOTED_NOTES)}`);
  }
  notes.push(`Branch: ${where(input.git)}`);
  notes.push(files.length ? `Changed files (${files.length}): ${fileList(files)}` : 'No changed files in git.');
  const summary = line(headline(input, files), LIMITS.summary);
  return {
    sessionSummary: line(`${summary} (zero-touch)`, LIMITS.summary),
    handoffSummary: summary,
    notes: notes.join('\n').slice(0, LIMITS.notes),
    files,
  };
}
