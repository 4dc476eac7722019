// Small helpers for the confirmation texts of the catalog's Copilot tools (actionDefinition.ts `confirm`).
import { displayAgent } from '../../domain/agentId';

/** A tool input value as text: strings as they are, anything else (the model may send any JSON) as JSON. */
export function said(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? fallback);
}

/** Agent ids as people read them, comma separated. */
export function agentNames(ids: readonly unknown[]): string {
  return ids.map((a) => displayAgent(said(a, '?'))).join(', ');
}
