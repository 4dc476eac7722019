// .agentsync/state.json: a derived summary for the panel and badge; AgentSync 0.3's session fields are kept.
import * as fs from 'node:fs';
import { STATUSES, isTerminal, type Handoff } from '../domain/handoffSchema';

export interface HandoffSummary {
  openHandoffCount: number;
  activeHandoffIds: string[];
  handoffCounts: Record<string, number>;
}

export function summarizeHandoffs(handoffs: readonly Handoff[]): HandoffSummary {
  const counts: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  const open: string[] = [];
  for (const h of handoffs) {
    counts[h.status]++;
    if (!isTerminal(h.status)) open.push(h.handoff_id);
  }
  return { openHandoffCount: open.length, activeHandoffIds: open, handoffCounts: counts };
}

/** Reads state.json leniently: it is derived, so a broken one is replaced rather than trusted. */
export function readStateFile(file: string): Record<string, unknown> {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > 5_000_000) return {};
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const DEFAULT_SESSION_STATE = {
  sessionActive: false,
  activeSession: null,
  lastSession: null,
  health: null,
  hotFiles: [] as string[],
};

export function mergeState(previous: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  return { ...DEFAULT_SESSION_STATE, ...previous, ...patch, updatedAt: new Date().toISOString() };
}
