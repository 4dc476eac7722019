// The tool hooks' index (docs/contract.md §14, "The hooks' index"): what `agentsync hook pre-tool-use` and
// `post-tool-use` need of the record (what each hook reader declares in hooks/hookReaders.ts: the live claims' holder,
// session, lease, files, summary and policy; withdrawn passes whole, told to their receivers), kept beside it in the
// record's folder so that a hook does not read a store of thousands of records around every tool call. Every write
// writes it under the store's lock, right after the store's rename, naming the store it was derived from: the store
// file's stat key (disk/fileStatKey.ts) and its hash (storeHash.ts). A hook uses it only while the store's stat key is
// still that one; any other (a hand edit, a crash between the two renames, a store seeded or joined since) and the
// hook reads the store itself, so the index can make a hook slower, never wrong.
// The file is the store's own layout (storeFormat.ts) with two more head lines, so the hooks' scan (hooks/storeScan.ts)
// reads it as it reads the store. Node built-ins only: dist/hook.js reads it.
import * as fs from 'node:fs';
import { writeFileAtomic } from '../disk/atomicFile';
import { fileStatKey } from '../disk/fileStatKey';
import type { Handoff } from '../domain/handoffSchema';
import { recordText } from './storeFormat';
import { indexedFields } from '../hooks/hookReaders';

/**
 * What the index holds: per status, the fields the hook readers declare (hooks/hookReaders.ts), and nothing else.
 * `covers` names it in the index's head, so an index written for other readers (an older AgentSync's, which left out a
 * field a reader now needs) is not taken, and the next write replaces it.
 */
const INDEXED = indexedFields();
const COVERS = [...INDEXED]
  .map(([status, fields]) => `${status}:${fields === '*' ? '*' : [...fields].sort().join(',')}`)
  .sort()
  .join(';');
const VERSION = 2;
const HEAD = `{\n  "version": ${VERSION},\n  "covers": ${JSON.stringify(COVERS)},\n  "derived_from": `;
const DERIVED_FROM = /^"(\d+:\d+:\d+:\d+:\d+) ([0-9a-f]{64})",\n/;
/** Far above any index of live claims; a larger file is not one AgentSync wrote. */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;

/** The index of `handoffs`, derived from the store file whose stat key is `storeStat` and whose hash is `storeHash`. */
export function hookIndexBytes(handoffs: readonly Handoff[], storeStat: string, storeHash: string): Buffer {
  const kept: Record<string, unknown>[] = [];
  for (const h of handoffs) {
    const fields = INDEXED.get(h.status);
    if (fields === '*') kept.push(h);
    else if (fields) kept.push(pick(h, fields));
  }
  const head = `${HEAD}${JSON.stringify(`${storeStat} ${storeHash}`)},\n  "handoffs": [`;
  return Buffer.from(kept.length ? `${head}\n${kept.map(recordText).join(',\n')}\n  ]\n}\n` : `${head}]\n}\n`);
}

function pick(h: Handoff, fields: ReadonlySet<string>): Record<string, unknown> {
  const record = h as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // In the record's own key order, as the store holds it (the hooks' scan finds a record by its text).
  for (const k of Object.keys(record)) if (fields.has(k) && record[k] !== undefined) out[k] = record[k];
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

/** The store file's stat key and hash that the index `bytes` names, or null when it names none or covers other readers. */
export function derivedFrom(bytes: Buffer): { stat: string; hash: string } | null {
  const head = bytes.subarray(0, HEAD.length + 256).toString('latin1');
  if (!head.startsWith(HEAD)) return null; // another version, or written for other readers
  const m = DERIVED_FROM.exec(head.slice(HEAD.length));
  return m ? { stat: m[1], hash: m[2] } : null;
}

/** Whether the index names the store whose stat key is `storeStat` (its head alone is read). */
export function hookIndexNames(indexFile: string, storeStat: string): boolean {
  let fd: number | null = null;
  try {
    fd = fs.openSync(indexFile, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const head = Buffer.alloc(HEAD.length + 256);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    return derivedFrom(head.subarray(0, n))?.stat === storeStat;
  } catch {
    return false;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
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
