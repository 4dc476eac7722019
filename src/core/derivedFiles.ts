// Regenerates what is derived from handoffs.json after a write: AgentTracker.md's section, state.json,
// and decisions.md lines. A failure here never undoes the store write; it is reported and fixed next time.
import * as fs from 'node:fs';
import { appendLines, assertRegularOrMissing, writeFileAtomic } from './atomicFile';
import { DECISIONS_HEADER, decisionLine } from './decisionsLog';
import { mergeState, readStateFile, summarizeHandoffs } from './stateFile';
import { updateTrackerText } from './trackerRenderer';
import type { Handoff } from './handoffSchema';
import type { StoreTransaction } from './storeTransaction';
import type { WorkspaceLayout } from './workspaceLayout';

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
export function editTrackerFile(layout: WorkspaceLayout, edit: (text: string) => string, options: { durable?: boolean } = {}): void {
  const text = readRegularFile(layout.trackerFile) ?? '# Agent Tracker\n\n';
  const next = edit(text);
  if (next !== text) writeFileAtomic(layout.trackerFile, next, options);
}

export function renderTrackerFile(layout: WorkspaceLayout, handoffs: readonly Handoff[]): void {
  editTrackerFile(layout, (text) => updateTrackerText(text, handoffs), { durable: false });
}

export function writeStateSummary(layout: WorkspaceLayout, handoffs: readonly Handoff[], patch: Record<string, unknown> = {}): void {
  const state = mergeState(readStateFile(layout.stateFile), { ...summarizeHandoffs(handoffs), ...patch });
  writeFileAtomic(layout.stateFile, JSON.stringify(state, null, 2) + '\n', { durable: false });
}

export function writeDerivedFiles(layout: WorkspaceLayout, tx: StoreTransaction): string[] {
  const problems: string[] = [];
  const attempt = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (e) {
      problems.push(`could not update ${what}: ${(e as Error).message}`);
    }
  };
  attempt('AgentTracker.md', () => renderTrackerFile(layout, tx.handoffs));
  attempt('.agentsync/state.json', () => writeStateSummary(layout, tx.handoffs));
  if (tx.decisions.length) {
    attempt('decisions.md', () => {
      const exists = fs.existsSync(layout.decisionsFile);
      const lines = tx.decisions.map((d) => decisionLine(d.handoff, d.agent, d.timestamp)).join('');
      appendLines(layout.decisionsFile, (exists ? '' : DECISIONS_HEADER) + lines);
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
