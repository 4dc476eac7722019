// One archived handoff is one line (docs/agentsync-documentation.md, "The archive"): the record as compact JSON, then
// a newline. A strict prefix of such a line never parses, which is how a line a kill cut short is told apart from a
// whole one that merely lacks its newline (a hand edit).
import type { Handoff } from '../../domain/handoffSchema';

export function archiveLine(h: Handoff): string {
  return JSON.stringify(h) + '\n';
}

/** The object a line holds (not yet checked against the schema), or null when it is not one JSON object. */
export function parseArchiveLine(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
