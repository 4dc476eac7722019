// Regenerates what is derived from handoffs.json after a write: AgentTracker.md's section, state.json,
// and decisions.md lines. A failure here never undoes the store write; it is reported and fixed next time.
import * as fs from 'node:fs';
import { appendLines, assertRegularOrMissing, writeFileAtomic, type AtomicWriteOptions } from '../disk/atomicFile';
import { DECISIONS_HEADER, decisionLine } from './decisionsLog';
import { mergeState, readStateFile, summarizeHandoffs } from './stateFile';
import { updateTrackerText } from '../domain/trackerRenderer';
import type { Handoff } from '../domain/handoffSchema';
import type { StoreTransaction } from './storeTransaction';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

/** A derived file's text, or null when it does not exist yet; refuses symlinks and special files. */
function readRegularFile(file: string): string | null {
  assertRegularOrMissing(file);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return null;
  }
}

/** Reads AgentTracker.md (a fresh one if missing), applies `edit`, writes it back only if it changed. */
export function editTrackerFile(layout: WorkspaceLayout, edit: (text: string) => string, options: AtomicWriteOptions = {}): void {
  const text = readRegularFile(layout.trackerFile) ?? '# Agent Tracker\n\n';
  const next = edit(text);
  if (next !== text) writeFileAtomic(layout.trackerFile, next, options);
}

/** `beforeRename` lets the store skip the rename while git is replacing files (see gitActivity.ts). */
export interface DerivedWriteOptions {
  /** The SHA-256 of the store bytes these files are derived from, kept in state.json to tell when they are stale. */
  storeHash?: string;
  beforeRename?: () => void;
}

export function renderTrackerFile(layout: WorkspaceLayout, handoffs: readonly Handoff[], options: DerivedWriteOptions = {}): void {
  editTrackerFile(layout, (text) => updateTrackerText(text, handoffs), { durable: false, beforeRename: options.beforeRename });
}

export function writeStateSummary(
  layout: WorkspaceLayout,
  handoffs: readonly Handoff[],
  patch: Record<string, unknown> = {},
  options: DerivedWriteOptions = {},
): void {
  const hash = options.storeHash ? { storeHash: options.storeHash } : {};
  const state = mergeState(readStateFile(layout.stateFile), { ...summarizeHandoffs(handoffs), ...patch, ...hash });
  writeFileAtomic(layout.stateFile, JSON.stringify(state, null, 2) + '\n', { durable: false, beforeRename: options.beforeRename });
}

/**
 * True when state.json names another store than `storeHash`: the last write's rebuild was cut off (or git changed
 * the store). A workspace with no state.json yet has never been rendered here and is left as it is.
 */
export function derivedFilesStale(layout: WorkspaceLayout, storeHash: string): boolean {
  const named = readStateFile(layout.stateFile).storeHash;
  return typeof named === 'string' && named !== storeHash;
}

/** Rebuilds the tracker section and state.json from the store (a crash or a failure cut off the last rebuild). */
export function rebuildDerivedFiles(layout: WorkspaceLayout, handoffs: readonly Handoff[], options: DerivedWriteOptions): string[] {
  const problems: string[] = [];
  attemptEach(problems, 'AgentTracker.md', () => renderTrackerFile(layout, handoffs, options));
  // state.json last: its storeHash says the rebuild finished, so it names the store only when the tracker was written.
  const stateOptions = problems.length === 0 ? options : { ...options, storeHash: 'incomplete' };
  attemptEach(problems, '.agentsync/state.json', () => writeStateSummary(layout, handoffs, {}, stateOptions));
  return problems;
}

function attemptEach(problems: string[], what: string, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    problems.push(`could not update ${what}: ${(e as Error).message}`);
  }
}

export function writeDerivedFiles(layout: WorkspaceLayout, tx: StoreTransaction, options: DerivedWriteOptions = {}): string[] {
  const problems = rebuildDerivedFiles(layout, tx.handoffs, options);
  if (tx.decisions.length) {
    attemptEach(problems, 'decisions.md', () => {
      const exists = fs.existsSync(layout.decisionsFile);
      const lines = tx.decisions.map((d) => decisionLine(d.handoff, d.agent, d.timestamp)).join('');
      appendLines(layout.decisionsFile, (exists ? '' : DECISIONS_HEADER) + lines, false, () => {
        options.beforeRename?.(); // throws while git is replacing files: decisions.md is repaired on the next start
        return true;
      });
    });
  }
  return problems;
}

/**
 * Appends the decisions.md lines a crash cut off: every merged/escalated handoff whose id has no line yet,
 * dated by its terminal history entry. Run once per store instance (cold start), under the lock.
 */
export function appendMissingDecisions(layout: WorkspaceLayout, handoffs: readonly Handoff[]): number {
  const terminal = handoffs.filter((h) => h.status === 'merged' || h.status === 'escalated');
  if (terminal.length === 0) return 0;
  const text = readRegularFile(layout.decisionsFile) ?? '';
  const recorded = new Set<string>();
  for (const m of text.matchAll(/^[^|\n]*\| (HO-\d{8}-\d+) \|/gm)) recorded.add(m[1]);
  const missing = terminal.filter((h) => !recorded.has(h.handoff_id));
  if (missing.length === 0) return 0;
  const lines = missing.map((h) => {
    const last = [...h.state_history].reverse().find((e) => e.status === h.status);
    return decisionLine(h, last?.agent ?? h.from_agent, last?.timestamp ?? h.updated_at);
  });
  appendLines(layout.decisionsFile, (text ? '' : DECISIONS_HEADER) + lines.join(''));
  return missing.length;
}
