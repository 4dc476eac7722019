// Regenerates what is derived from handoffs.json after a write: AgentTracker.md's section, state.json,
// and decisions.md lines. A failure here never undoes the store write; it is reported and fixed next time.
import * as fs from 'node:fs';
import { appendLines, assertRegularOrMissing, writeFileAtomic, type AtomicWriteOptions } from '../disk/atomicFile';
import { DECISIONS_HEADER, decisionLine, renameMovedDecisions } from './decisionsLog';
import { mergeState, readStateFile, summarizeHandoffs } from './stateFile';
import { renderTrackerFile, type TrackerSectionProof } from './trackerFile';
import { contentHash } from './storeStamp';
import { fileStatKeyOf } from '../disk/fileStatKey';
import { isTerminal, type Handoff } from '../domain/handoffSchema';
import type { StoreTransaction } from './storeTransaction';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import type { DerivedWriteOptions } from './derivedWriteOptions';

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

/** `previous`: state.json as the caller already read it (it is read once per write). */
export function writeStateSummary(
  layout: WorkspaceLayout,
  handoffs: readonly Handoff[],
  patch: Record<string, unknown> = {},
  options: DerivedWriteOptions = {},
  previous: Record<string, unknown> = readStateFile(layout.stateFile),
): void {
  const hash = options.storeHash ? { storeHash: options.storeHash } : {};
  const state = mergeState(previous, { ...summarizeHandoffs(handoffs), ...patch, ...hash });
  writeFileAtomic(layout.stateFile, JSON.stringify(state, null, 2) + '\n', { durable: false, beforeRename: options.beforeRename });
}

/**
 * Why the derived files are not what `storeHash`'s store renders, or null when they are: state.json names another
 * store (the last rebuild was cut off, or git changed the store), or is gone while the tracker stays; AgentTracker.md
 * is gone, or is not the file the last render wrote (edited by hand, or by a session section since). A workspace with
 * neither file has never been rendered here and is left as it is. Every process asks this at start, so a tracker
 * whose stat is still the one the last render recorded (disk/fileStatKey.ts) is taken as that file without reading it;
 * any other is hashed.
 */
export function derivedFilesOutOfDate(layout: WorkspaceLayout, storeHash: string): string | null {
  assertRegularOrMissing(layout.trackerFile);
  const trackerStat = fileStatKeyOf(layout.trackerFile);
  if (!fs.existsSync(layout.stateFile)) return trackerStat ? '.agentsync/state.json is missing' : null;
  const state = readStateFile(layout.stateFile);
  if (typeof state.storeHash === 'string' && state.storeHash !== storeHash) return '.agentsync/state.json names another store';
  if (!trackerStat) return 'AgentTracker.md is missing';
  const proof = state.trackerSection as { sha256?: unknown; stat?: unknown } | undefined;
  if (typeof proof?.sha256 !== 'string' || proof.stat === trackerStat) return null;
  const trackerBytes = readRegularBytes(layout.trackerFile);
  if (!trackerBytes) return 'AgentTracker.md is missing';
  if (proof.sha256 !== contentHash(trackerBytes)) return 'AgentTracker.md changed since it was rendered';
  return null;
}

function readRegularBytes(file: string): Buffer | null {
  assertRegularOrMissing(file);
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return null;
  }
}

/** Rebuilds the tracker section and state.json from the store (a crash or a failure cut off the last rebuild). */
export function rebuildDerivedFiles(layout: WorkspaceLayout, handoffs: readonly Handoff[], options: DerivedWriteOptions): string[] {
  const problems: string[] = [];
  const state = readStateFile(layout.stateFile);
  let trackerSection: TrackerSectionProof | null = null;
  const renderedFrom = options.loaded && state.storeHash === options.loaded.hash ? options.loaded.handoffs : undefined;
  attemptEach(
    problems,
    'AgentTracker.md',
    () => (trackerSection = renderTrackerFile(layout, handoffs, options, state.trackerSection, renderedFrom)),
  );
  // state.json last: its storeHash says the rebuild finished, so it names the store only when the tracker was written.
  const stateOptions = problems.length === 0 ? options : { ...options, storeHash: 'incomplete' };
  const patch = trackerSection ? { trackerSection } : {};
  attemptEach(problems, '.agentsync/state.json', () => writeStateSummary(layout, handoffs, patch, stateOptions, state));
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
 * Appends the decisions.md lines a crash cut off: every finished (merged, escalated, withdrawn) handoff whose id has no line yet,
 * dated by its terminal history entry. Run once per store instance (cold start), under the lock.
 */
export function appendMissingDecisions(layout: WorkspaceLayout, handoffs: readonly Handoff[]): number {
  const terminal = handoffs.filter((h) => isTerminal(h.status));
  if (terminal.length === 0) return 0;
  const { recorded, empty } = recordedDecisions(layout.decisionsFile, new Set(terminal.map((h) => h.handoff_id)));
  let missing = terminal.filter((h) => !recorded.has(h.handoff_id));
  if (missing.length === 0) return 0;
  const renamed = renameMovedDecisions(layout.decisionsFile, missing);
  missing = missing.filter((h) => !renamed.has(h.handoff_id));
  if (missing.length === 0) return renamed.size;
  const lines = missing.map((h) => {
    const last = [...h.state_history].reverse().find((e) => e.status === h.status);
    return decisionLine(h, last?.agent ?? h.from_agent, last?.timestamp ?? h.updated_at);
  });
  appendLines(layout.decisionsFile, (empty ? DECISIONS_HEADER : '') + lines.join(''));
  return missing.length + renamed.size;
}

const DECISION_ID = /^[^|\n]*\| (HO-\d{8}-\d+) \|/gm;

/**
 * The ids decisions.md has a line for, among `wanted`. decisions.md grows with the whole history, while the handoffs
 * that can miss a line finished recently (they are still in handoffs.json): it is read from its end back, a window
 * at a time, only as far as it takes to find them all, so a cold start does not read years of decisions.
 */
function recordedDecisions(file: string, wanted: ReadonlySet<string>): { recorded: Set<string>; empty: boolean } {
  assertRegularOrMissing(file);
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return { recorded: new Set(), empty: true };
  }
  try {
    const size = fs.fstatSync(fd).size;
    const recorded = new Set<string>();
    for (let window = 256 * 1024; ; window *= 4) {
      const start = Math.max(0, size - window);
      const buf = Buffer.alloc(size - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      let text = buf.toString('utf8');
      if (start > 0) text = text.slice(text.indexOf('\n') + 1); // the first line may be cut
      for (const m of text.matchAll(DECISION_ID)) if (wanted.has(m[1])) recorded.add(m[1]);
      if (start === 0 || recorded.size === wanted.size) return { recorded, empty: size === 0 };
    }
  } finally {
    fs.closeSync(fd);
  }
}
