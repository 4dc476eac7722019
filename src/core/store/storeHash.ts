// The identity of a handoffs.json (SHA-256 based), named by the validated-store stamp, the audit journal and
// state.json's storeHash. A file in the layout AgentSync writes (storeFormat.ts) is hashed as a list: the SHA-256
// of its parts' SHA-256s, each part's digest cached by identity, so a write hashes only the records it changed
// instead of the whole file (docs/agentsync-documentation.md, "The archive"). Any other file is hashed whole.
// Both are functions of the exact bytes: the split is fixed by the bytes, and the two kinds are domain-separated.
import * as crypto from 'node:crypto';
import { splitStoreBytes } from './storeFormat';

const digests = new WeakMap<Buffer, Buffer>();

/** One-shot crypto.hash: for a 1 KB record it costs a third of createHash().update().digest() (10,000 records: 19 vs 42 ms). */
const sha256: (part: Buffer) => Buffer =
  typeof crypto.hash === 'function'
    ? (part) => crypto.hash('sha256', part, 'buffer')
    : (part) => crypto.createHash('sha256').update(part).digest();

function digestOf(part: Buffer): Buffer {
  let d = digests.get(part);
  if (!d) digests.set(part, (d = sha256(part)));
  return d;
}

/** The same part as last time: the same buffer (a write), or the same bytes re-read from disk (memcmp, far cheaper than SHA-256). */
function samePart(a: Buffer, b: Buffer): boolean {
  return a === b || (a.length === b.length && a.equals(b));
}

function hashWhole(parts: readonly Buffer[]): string {
  const h = crypto.createHash('sha256').update('agentsync-store-bytes-v1\n');
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/**
 * The parts last hashed and their digests side by side: the next write, or the next read of a file another process
 * changed, copies the digests of the parts that did not change (docs/agentsync-documentation.md, "The tree at scale").
 */
let last: { chunks: readonly Buffer[]; digests: Buffer } | null = null;

/** The hash of the file that is exactly these parts concatenated, as storeSnapshot.serializeChunks returns them. */
export function storeHashOfChunks(chunks: readonly Buffer[]): string {
  if (chunks.length < 3) return hashWhole(chunks);
  // One update of all the digests: thousands of small updates cost more than the hashing itself.
  const all = Buffer.allocUnsafe(chunks.length * 32);
  const prev = last;
  for (let i = 0; i < chunks.length;) {
    let j = i;
    while (prev && j < chunks.length && j < prev.chunks.length && samePart(prev.chunks[j], chunks[j])) j++;
    if (j > i) {
      prev!.digests.copy(all, i * 32, i * 32, j * 32);
      i = j;
    } else {
      digestOf(chunks[i]).copy(all, i * 32);
      i++;
    }
  }
  last = { chunks, digests: all };
  return hashOfDigests(all);
}

function hashOfDigests(digests: Buffer): string {
  return crypto.createHash('sha256').update('agentsync-store-parts-v1\n').update(digests).digest('hex');
}

/** The parts' digests side by side (32 bytes each) when `chunks` is what storeHashOfChunks hashed last, else null. */
export function digestsOfChunks(chunks: readonly Buffer[]): Buffer | null {
  return last && last.chunks === chunks ? last.digests : null;
}

/**
 * The hash of the file that is exactly these parts, taking their digests as given (the validated-store stamp's
 * record of them, storeStamp.ts, whose keyed MAC vouches for them): nothing is hashed but the digests themselves,
 * and the next write copies the digests of the parts it did not change. `digests` must hold 32 bytes per part.
 */
export function storeHashOfDigests(chunks: readonly Buffer[], digests: Buffer): string {
  if (chunks.length < 3 || digests.length !== chunks.length * 32) throw new Error('storeHashOfDigests: one 32-byte digest per part');
  last = { chunks, digests };
  return hashOfDigests(digests);
}

/** The same hash from the file's bytes, with the parts it split them into (null when not in AgentSync's layout). */
export function storeHashOfBytes(bytes: Buffer): { hash: string; chunks: Buffer[] | null } {
  const chunks = splitStoreBytes(bytes);
  return chunks ? { hash: storeHashOfChunks(chunks), chunks } : { hash: hashWhole([bytes]), chunks: null };
}
