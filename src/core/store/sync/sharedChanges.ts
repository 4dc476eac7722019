// What a write changes in the shared tree (docs/contract.md §13), as paths for the one-process writer
// (sharedTreeWriter.ts). Format 1 (0.4.0's): handoffs.json and ledger.jsonl, whole. Formats 2 and 3
// (sharedTreeLayout.ts): the blob of each record whose bytes changed, each record archived by this write moved from
// records/ to archive/ (one commit, so under the same compare-and-swap), one blob per new ledger answer, meta.json when
// the id high-water mark moved. The upgrade writes a whole tree in the newest format from a state read in any format.
import { STORE_VERSION, type Handoff } from '../../domain/handoffSchema';
import type { StoreSnapshot } from '../storeSnapshot';
import type { LedgerEntry } from '../storeTransaction';
import { emptyStoreBytes, headFor, recordBytes, SEPARATOR, TAIL } from '../storeFormat';
import { serializeSharedLedger } from './sharedLedger';
import { LEDGER_FILE, STATE_FILE } from './sharedStateTree';
import { carriesContexts, FORMAT_FILE, ledgerPath, META_FILE, recordPath, type TreeFormat } from './sharedTreeLayout';
import type { TreeChange } from './sharedTreeWriter';

/** Format 1: the whole handoffs.json and the ledger (the newest answers kept). */
export function format1Changes(
  snapshot: StoreSnapshot,
  ledger: ReadonlyMap<string, LedgerEntry>,
  added: readonly LedgerEntry[],
): TreeChange[] {
  return [
    { path: STATE_FILE, data: Buffer.concat(snapshot.serializeChunks()) },
    { path: LEDGER_FILE, data: serializeSharedLedger(ledger, added) },
  ];
}

export function metaBytes(highWater: string | undefined): string {
  return JSON.stringify(highWater ? { id_high_water: highWater } : {}) + '\n';
}

function ledgerChanges(added: readonly LedgerEntry[]): TreeChange[] {
  const last = new Map<string, LedgerEntry>();
  for (const e of added) if (e.response !== undefined) last.set(e.request_id, e);
  return [...last.values()].map((e) => ({ path: ledgerPath(e.request_id), data: JSON.stringify(e) + '\n' }));
}

/**
 * A tree format (`format`): `before` the open records' bytes as read (by uid), `snapshot` the state after the batch,
 * `archived` the records this write moves to archive/ (already taken out of the snapshot), `highWaterBefore`
 * meta.json's mark as read, `contexts` the work contexts of the batch's passes.
 */
export function treeChanges(
  format: TreeFormat,
  before: ReadonlyMap<string, Buffer>,
  snapshot: StoreSnapshot,
  archived: readonly Handoff[],
  added: readonly LedgerEntry[],
  highWaterBefore: string | undefined,
  contexts: readonly { uid: string; bytes: string }[] = [],
): TreeChange[] {
  const out: TreeChange[] = [];
  const chunks = snapshot.serializeChunks();
  const open = new Set<string>();
  snapshot.handoffs.forEach((h, i) => {
    open.add(h.uid!);
    // serializeChunks: [head, record, SEPARATOR, record, ..., TAIL]; its per-record bytes are cached by identity.
    const bytes = chunks[1 + 2 * i];
    const was = before.get(h.uid!);
    if (!was || !was.equals(bytes)) out.push({ path: recordPath('records', h.uid!, format), data: bytes });
  });
  for (const uid of before.keys()) if (!open.has(uid)) out.push({ path: recordPath('records', uid, format), data: null });
  for (const h of archived) out.push({ path: recordPath('archive', h.uid!, format), data: recordBytes(h) });
  out.push(...ledgerChanges(added));
  // Format 3 carries the passes' work contexts (format 2 has no place for them: they stay in the clone that passed).
  if (carriesContexts(format)) for (const c of contexts) out.push({ path: recordPath('context', c.uid, format), data: c.bytes });
  if (snapshot.highWater !== highWaterBefore) out.push({ path: META_FILE, data: metaBytes(snapshot.highWater) });
  return out;
}

/**
 * The whole tree of a state in `format` (the upgrade): every open record, every archived record given (this clone's
 * archive), the ledger's answers, the marker. Written on top of the format-1 commit, whose two files it removes: one
 * commit, the history kept. (On a format-2 commit, sharedWrite.ts moves the shared archive too.)
 */
export function wholeTree(
  format: TreeFormat,
  snapshot: StoreSnapshot,
  archived: readonly Handoff[],
  ledger: ReadonlyMap<string, LedgerEntry>,
  removeFormat1: boolean,
): TreeChange[] {
  const open = new Set(snapshot.handoffs.map((h) => h.uid!));
  const out: TreeChange[] = removeFormat1
    ? [
        { path: STATE_FILE, data: null },
        { path: LEDGER_FILE, data: null },
      ]
    : [];
  out.push({ path: FORMAT_FILE, data: `${format}\n` }, { path: META_FILE, data: metaBytes(snapshot.highWater) });
  const chunks = snapshot.serializeChunks();
  snapshot.handoffs.forEach((h, i) => out.push({ path: recordPath('records', h.uid!, format), data: chunks[1 + 2 * i] }));
  const seen = new Set<string>();
  for (const h of archived) {
    if (!h.uid || open.has(h.uid) || seen.has(h.uid)) continue;
    seen.add(h.uid);
    out.push({ path: recordPath('archive', h.uid, format), data: recordBytes(h) });
  }
  out.push(...ledgerChanges([...ledger.values()]));
  return out;
}

/**
 * A tree format's open records as handoffs.json bytes (storeFormat.ts), in uid order (a ULID starts with its time),
 * under the newest store version this build reads: the snapshot parsed from them writes its own version back.
 */
export function treeStoreBytes(records: ReadonlyMap<string, Buffer>, highWater: string | undefined): Buffer {
  const uids = [...records.keys()].sort();
  if (uids.length === 0) return emptyStoreBytes(highWater);
  const parts: Buffer[] = [headFor(highWater, STORE_VERSION)];
  uids.forEach((u, i) => {
    if (i > 0) parts.push(SEPARATOR);
    parts.push(records.get(u)!);
  });
  parts.push(TAIL);
  return Buffer.concat(parts);
}
