// The byte layout AgentSync writes handoffs.json in: 2-space JSON, one record per block indented by four spaces, so a
// file it wrote splits back into its records without parsing (the per-record caches of storeSnapshot.ts, storeHash.ts
// and incrementalValidation.ts rely on it). A file in any other layout is still read; it is only not split.
import type { Handoff, StoreVersion } from '../domain/handoffSchema';

export const SEPARATOR = Buffer.from(',\n');
export const TAIL = Buffer.from('\n  ]\n}\n');
/** Between two records: the first one's closing brace, the separator, the next one's opening brace. */
const BOUNDARY = Buffer.from('\n    },\n    {\n');
const RECORD_START = Buffer.from('    {\n');
const RECORD_END = Buffer.from('\n    }');
const HEAD_PATTERN = /^\{\n {2}"version": ([123]),\n(?: {2}"id_high_water": "(HO-\d{8}-\d{3,6})",\n)? {2}"handoffs": \[\n/;

const heads = new Map<string, Buffer>();

/** The bytes before the first record; `id_high_water` is written only once the archive has taken a record. */
export function headFor(highWater: string | undefined, version: StoreVersion = 1): Buffer {
  const key = `${version}${highWater ?? ''}`;
  let head = heads.get(key);
  if (!head) {
    const mark = highWater ? `  "id_high_water": ${JSON.stringify(highWater)},\n` : '';
    heads.set(key, (head = Buffer.from(`{\n  "version": ${version},\n${mark}  "handoffs": [\n`)));
  }
  return head;
}

export function emptyStoreBytes(highWater: string | undefined): Buffer {
  const mark = highWater ? `  "id_high_water": ${JSON.stringify(highWater)},\n` : '';
  return Buffer.from(`{\n  "version": 1,\n${mark}  "handoffs": []\n}\n`);
}

/** One record as it appears in the file (no separator): what JSON.stringify(file, null, 2) writes for it. */
export function recordText(record: unknown): string {
  return '    ' + JSON.stringify(record, null, 2).replace(/\n/g, '\n    ');
}

export function recordBytes(h: Handoff): Buffer {
  return Buffer.from(recordText(h));
}

/** The `id_high_water` in a file's head (the first part splitStoreBytes returns); undefined when it has none. */
export function highWaterOf(head: Buffer): string | undefined {
  return HEAD_PATTERN.exec(head.subarray(0, 120).toString('latin1'))?.[2];
}

/** The store version in a file's head (the first part splitStoreBytes returns); 1 when it cannot be read there. */
export function versionOf(head: Buffer): StoreVersion {
  const v = HEAD_PATTERN.exec(head.subarray(0, 120).toString('latin1'))?.[1];
  return v === '3' ? 3 : v === '2' ? 2 : 1;
}

/**
 * Splits a file in this layout into [head, record, SEPARATOR, record, ..., TAIL] (views of `bytes`, not copies);
 * null when it is not in this layout or holds no record. Inside a record every line is indented by more than four
 * spaces and strings hold no raw line break, so BOUNDARY occurs only between records.
 */
export function splitStoreBytes(bytes: Buffer): Buffer[] | null {
  const head = HEAD_PATTERN.exec(bytes.subarray(0, 120).toString('latin1'));
  if (!head || bytes.length < head[0].length + TAIL.length) return null;
  const bodyStart = head[0].length;
  const bodyEnd = bytes.length - TAIL.length;
  if (!bytes.subarray(bodyEnd).equals(TAIL)) return null;
  const body = bytes.subarray(bodyStart, bodyEnd);
  if (!startsWith(body, RECORD_START) || !endsWith(body, RECORD_END)) return null;
  const chunks: Buffer[] = [bytes.subarray(0, bodyStart)];
  let from = bodyStart;
  for (;;) {
    const at = bytes.indexOf(BOUNDARY, from);
    if (at < 0 || at >= bodyEnd) break;
    const end = at + RECORD_END.length;
    chunks.push(bytes.subarray(from, end), SEPARATOR);
    from = end + SEPARATOR.length;
  }
  chunks.push(bytes.subarray(from, bodyEnd), TAIL);
  return chunks;
}

function startsWith(b: Buffer, prefix: Buffer): boolean {
  return b.length >= prefix.length && b.subarray(0, prefix.length).equals(prefix);
}

function endsWith(b: Buffer, suffix: Buffer): boolean {
  return b.length >= suffix.length && b.subarray(b.length - suffix.length).equals(suffix);
}
