// The tool hooks' index (docs/contract.md §14, "The hooks' index"): what `agentsync hook pre-tool-use` and
// `post-tool-use` need of the record (the live claims: holder, session, lease, files, summary; and withdrawn passes,
// told to their receivers), kept beside it in the
// record's folder so that a hook does not read a store of thousands of records around every tool call. Every write
// writes it under the store's lock, right after the store's rename, naming the store it was derived from: the store
// file's stat key (disk/fileStatKey.ts) and its hash (storeHash.ts). A hook uses it only while the store's stat key is
// still that one; any other (a hand edit, a crash between the two renames, a store seeded or joined since) and the
// hook reads the store itself, so the index can make a hook slower, never wrong.
// The file is the store's own layout (storeFormat.ts) with one more head line, so the hooks' scan (hooks/storeScan.ts)
// reads it as it reads the store. Node built-ins only: dist/hook.js reads it.
import * as fs from 'node:fs';
import { writeFileAtomic } from '../disk/atomicFile';
import { fileStatKey } from '../disk/fileStatKey';
import type { Handoff } from '../domain/handoffSchema';
import { recordText } from './storeFormat';

/** The fields the hooks read of a live claim (hooks/conflictRadar.ts, hooks/leaseRenewal.ts). */
const HOOK_FIELDS = [
  'handoff_id',
  'status',
  'claimed_by',
  'claimed_at',
  'claimed_session',
  'updated_at',
  'lease_expires_at',
  'files',
  'summary',
  // a receiver's permissions, which the pre-tool hook enforces (hooks/passPermissions.ts)
  'policy',
] as const;

const DERIVED_FROM = /^\{\n {2}"version": 1,\n {2}"derived_from": "(\d+:\d+:\d+:\d+:\d+) ([0-9a-f]{64})",\n/;
/** Far above any index of live claims; a larger file is not one AgentSync wrote. */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;

/** The index of `handoffs`, derived from the store file whose stat key is `storeStat` and whose hash is `storeHash`. */
export function hookIndexBytes(handoffs: readonly Handoff[], storeStat: string, storeHash: string): Buffer {
  // Withdrawn passes go in whole: a receiver's hook tells them (hooks/withdrawNotices.ts); they are few and terminal.
  const live = handoffs.flatMap((h) => (h.status === 'in_progress' ? [hookFieldsOf(h)] : h.status === 'withdrawn' ? [h] : []));
  const head = `{\n  "version": 1,\n  "derived_from": ${JSON.stringify(`${storeStat} ${storeHash}`)},\n  "handoffs": [`;
  return Buffer.from(live.length ? `${head}\n${live.map(recordText).join(',\n')}\n  ]\n}\n` : `${head}]\n}\n`);
}

function hookFieldsOf(h: Handoff): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of HOOK_FIELDS) if (h[k] !== undefined) out[k] = h[k];
  return out;
}

/**
 * Writes the index of `handoffs` for the store just renamed into place with stat key `storeStat` (null: that stat is
 * not known, so the index is removed and hooks read the store). Not fsynced: after a power cut an index that names
 * another stat is only not used. Under the store's lock.
 */
export function writeHookIndex(file: string, handoffs: readonly Handoff[], storeStat: string | null, storeHash: string): void {
  if (storeStat === null) fs.rmSync(file, { force: true });
  else writeFileAtomic(file, hookIndexBytes(handoffs, storeStat, storeHash), { durable: false });
}

/** The store file's stat key and hash that the index `bytes` names, or null when it names none. */
export function derivedFrom(bytes: Buffer): { stat: string; hash: string } | null {
  const m = DERIVED_FROM.exec(bytes.subarray(0, 256).toString('latin1'));
  return m ? { stat: m[1], hash: m[2] } : null;
}

/**
 * The index's bytes when it was derived from the store file as it is now (the same stat key), else null (no index,
 * or a stale one: the caller reads the store). Neither file is followed through a symlink.
 */
export function freshHookIndex(indexFile: string, storeFile: string): Buffer | null {
  try {
    const store = fs.lstatSync(storeFile, { bigint: true });
    if (!store.isFile()) return null;
    const index = fs.lstatSync(indexFile);
    if (!index.isFile() || index.size > MAX_INDEX_BYTES) return null;
    const bytes = fs.readFileSync(indexFile);
    return derivedFrom(bytes)?.stat === fileStatKey(store) ? bytes : null;
  } catch {
    return null;
  }
}
