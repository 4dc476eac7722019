// The request ledger inside the shared state (docs/contract.md §13): request_id → request hash and answer, one JSON
// object a line, so a retry on any clone (after a kill at any point of the protocol) is answered, not applied again.
// Bounded: the newest entries are kept; older ids are still answered from the records' request markers.
import type { LedgerEntry } from '../storeTransaction';

export const SHARED_LEDGER_ENTRIES = 1000;

/** Parses a ledger ledgerProblem found sound. */
export function parseSharedLedger(text: string): Map<string, LedgerEntry> {
  const out = new Map<string, LedgerEntry>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as LedgerEntry;
    out.set(e.request_id, e);
  }
  return out;
}

/**
 * What makes `text` not a shared ledger (said for a store_invalid refusal), or null: every line is a JSON object with
 * a string request_id and hash. Only AgentSync writes the ledger, so a line that is anything else is not a ledger
 * skipped quietly: a write on it would answer retries from a ledger it cannot read, and could apply them twice.
 */
export function ledgerProblem(text: string): string | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]) continue;
    let e: unknown;
    try {
      e = JSON.parse(lines[i]);
    } catch {
      return `its ledger.jsonl line ${i + 1} is not JSON`;
    }
    const entry = e as Partial<LedgerEntry> | null;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `its ledger.jsonl line ${i + 1} is not a JSON object`;
    if (typeof entry.request_id !== 'string' || typeof entry.hash !== 'string') {
      return `its ledger.jsonl line ${i + 1} is not a ledger entry (no string request_id and hash)`;
    }
  }
  return null;
}

/** The shared ledger after a batch: its entries plus the batch's (answers only), the newest kept. */
export function serializeSharedLedger(before: ReadonlyMap<string, LedgerEntry>, added: readonly LedgerEntry[]): string {
  const all = new Map(before);
  for (const e of added) {
    if (e.response === undefined) continue;
    all.delete(e.request_id);
    all.set(e.request_id, e);
  }
  const kept = [...all.values()].slice(-SHARED_LEDGER_ENTRIES);
  return kept.map((e) => JSON.stringify(e)).join('\n') + (kept.length ? '\n' : '');
}

/** What a request_id lookup sees in sync mode: the shared ledger first, then this clone's own (reads, refusals). */
export function mergedLedger(
  shared: ReadonlyMap<string, LedgerEntry>,
  local: ReadonlyMap<string, LedgerEntry>,
): ReadonlyMap<string, LedgerEntry> {
  if (local.size === 0) return shared;
  const out = new Map(local);
  for (const [k, v] of shared) out.set(k, v);
  return out;
}
