// A store that no stamp vouches for (a git pull, another machine's write) is schema-checked, but a record whose
// exact bytes were in the previous snapshot is that same record: only changed records are checked again
// (docs/agentsync-documentation.md, "Files"). Records are compared as bytes, position by position (memcmp), so a
// re-read after one change costs a pass over the file's bytes, not a decode, split and hash of every record
// ("The tree at scale"). Any failure falls back to the whole-file check and its message.
import { handoffSchema, type Handoff, type HandoffsFile } from '../domain/handoffSchema';
import { highWaterOf, recordBytes, versionOf } from './storeFormat';

/**
 * The bytes each validated record was read from (records are replaced, never mutated, so it stays true). After a
 * whole-file check these are views of that one file; a record checked on its own keeps a copy, so a re-read does
 * not keep its whole file alive for one record.
 */
const readBytes = new WeakMap<Handoff, Buffer>();

/** Records sharing their first bytes are compared in full, at most this many (a hand-laid file may share many). */
const MAX_CANDIDATES = 16;
/** Enough to reach past `"handoff_id": "HO-…"` in the layout AgentSync writes, so the prefix usually names one record. */
const PREFIX_BYTES = 64;

function prefixOf(b: Buffer): string {
  return b.toString('latin1', 0, PREFIX_BYTES);
}

function prefixIndex(previous: readonly Handoff[], bytesOf: (h: Handoff) => Buffer): Map<string, number[]> {
  const index = new Map<string, number[]>();
  previous.forEach((h, j) => {
    const key = prefixOf(bytesOf(h));
    const list = index.get(key);
    if (list) list.push(j);
    else index.set(key, [j]);
  });
  return index;
}

/** Notes the bytes of each record of a file that was just validated whole (`chunks`: storeFormat.splitStoreBytes). */
export function rememberRecordBytes(chunks: readonly Buffer[] | null, handoffs: readonly Handoff[]): void {
  if (!chunks || chunks.length !== 2 * handoffs.length + 1) return;
  handoffs.forEach((h, i) => readBytes.set(h, chunks[2 * i + 1]));
}

/**
 * The validated file, reusing every previous record whose bytes are unchanged, so only changed records are parsed
 * and checked; null when it cannot be decided this way (not the written layout, or a changed record that is not
 * valid JSON or fails the schema: the caller's whole-file check then says what is wrong).
 * `chunks`: the file split by storeFormat.splitStoreBytes. `written`: the bytes this process wrote for a record, if it did.
 */
export function validateChangedRecords(
  chunks: readonly Buffer[] | null,
  previous: readonly Handoff[],
  written: (h: Handoff) => Buffer | undefined,
): HandoffsFile | null {
  if (previous.length === 0 || !chunks || chunks.length < 3) return null;
  const bytesOf = (h: Handoff) => readBytes.get(h) ?? written(h) ?? recordBytes(h);
  const count = (chunks.length - 1) / 2;
  const out = new Array<Handoff>(count);
  // Records usually keep their places; after an insert or removal the offset moves, found through an index of
  // every previous record by its first bytes (built at the first record out of place; a changed record is one).
  let offset = 0;
  let byPrefix: Map<string, number[]> | null = null;
  for (let i = 0; i < count; i++) {
    const chunk = chunks[2 * i + 1];
    const aligned = previous[i + offset];
    if (aligned && bytesOf(aligned).equals(chunk)) {
      out[i] = aligned;
      continue;
    }
    byPrefix ??= prefixIndex(previous, bytesOf);
    const moved = byPrefix
      .get(prefixOf(chunk))
      ?.slice(0, MAX_CANDIDATES)
      .find((j) => bytesOf(previous[j]).equals(chunk));
    if (moved !== undefined) {
      out[i] = previous[moved];
      offset = moved - i;
      continue;
    }
    // Head, tail and separators are fixed, so the file is valid JSON exactly when each record's text is.
    let raw: unknown;
    try {
      raw = JSON.parse(chunk.toString('utf8'));
    } catch {
      return null;
    }
    const parsed = handoffSchema.safeParse(raw);
    if (!parsed.success) return null;
    out[i] = parsed.data;
    readBytes.set(parsed.data, Buffer.from(chunk));
  }
  const highWater = highWaterOf(chunks[0]);
  return { version: versionOf(chunks[0]), ...(highWater ? { id_high_water: highWater } : {}), handoffs: out };
}
