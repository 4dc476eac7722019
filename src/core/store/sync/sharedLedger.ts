// The request ledger inside the shared state (docs/contract.md §13): request_id → request hash and answer, one JSON
// object a line, so a retry on any clone (after a kill at any point of the protocol) is answered, not applied again.
// Bounded: the newest entries are kept; older ids are still answered from the records' request markers.
import type { LedgerEntry } from '../storeTransaction';

export const SHARED_LEDGER_ENTRIES = 1000;

export function parseSharedLedger(text: string): Map<string, LedgerEntry> {
  const out = new Map<string, LedgerEntry>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const e = JSON.parse(line) as LedgerEntry;
      if (e && typeof e.request_id === 'string' && typeof e.hash === 'string') out.set(e.request_id, e);
    } catch {
      // a line that does not parse is skipped; the records' markers still answer its id
    }
  }
  return out;
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
