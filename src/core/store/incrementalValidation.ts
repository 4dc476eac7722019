// A store that no stamp vouches for (a git pull, another machine's write) is schema-checked, but a record whose
// exact text was in the previous snapshot is that same record: only changed records are checked again
// (docs/agentsync-documentation.md, "Files"). Any failure falls back to the whole-file check and its message.
import { handoffSchema, type Handoff, type HandoffsFile } from '../domain/handoffSchema';
import { recordText, splitRecordTexts } from './storeFormat';

/** The text each validated record was read from (records are replaced, never mutated, so it stays true). */
const readText = new WeakMap<Handoff, string>();

/** Notes the text of each record of a file that was just validated whole. */
export function rememberRecordTexts(text: string, handoffs: readonly Handoff[]): void {
  splitRecordTexts(text, handoffs.length)?.records.forEach((chunk, i) => readText.set(handoffs[i], chunk));
}

/**
 * The validated file, reusing every previous record whose text is unchanged, so only changed records are parsed
 * and checked; null when it cannot be decided this way (not the written layout, or a changed record that is not
 * valid JSON or fails the schema: the caller's whole-file check then says what is wrong).
 * `written`: the text this process wrote for a record, if it did.
 */
export function validateChangedRecords(
  text: string,
  previous: readonly Handoff[],
  written: (h: Handoff) => string | undefined,
): HandoffsFile | null {
  if (previous.length === 0) return null;
  const split = splitRecordTexts(text);
  if (!split) return null;
  const chunks = split.records;
  const known = new Map<string, Handoff>();
  for (const h of previous) known.set(readText.get(h) ?? written(h) ?? recordText(h), h);
  const out: Handoff[] = new Array<Handoff>(chunks.length);
  for (let i = 0; i < chunks.length; i++) {
    const same = known.get(chunks[i]);
    if (same) {
      out[i] = same;
      continue;
    }
    // Head, tail and separators are fixed, so the file is valid JSON exactly when each record's text is.
    let raw: unknown;
    try {
      raw = JSON.parse(chunks[i]);
    } catch {
      return null;
    }
    const parsed = handoffSchema.safeParse(raw);
    if (!parsed.success) return null;
    out[i] = parsed.data;
    readText.set(parsed.data, chunks[i]);
  }
  return { version: 1, ...(split.highWater ? { id_high_water: split.highWater } : {}), handoffs: out };
}
