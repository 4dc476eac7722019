// The first read of a large store that no stamp vouches for (a teammate's `git pull` of thousands of handoffs),
// checked without holding the thread for the whole check: the file's top level, then each record against the same
// schema as a whole-file read, a slice at a time, with `pause` between slices (the editor yields to its event loop).
// A store that fails is not explained here: the normal read then checks it whole and says what is wrong.
import * as z from 'zod';
import { handoffSchema, handoffsFileSchema, type Handoff, type HandoffsFile } from '../domain/handoffSchema';

/** Records checked between two pauses: a few milliseconds of work on a slow machine. */
export const RECORDS_PER_SLICE = 250;

/** The zod output of `handoffsFileSchema` for this text, built a slice at a time; null when the text is not valid. */
export async function checkStoreInSlices(text: string, pause: () => Promise<void>): Promise<HandoffsFile | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  await pause();
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { handoffs?: unknown }).handoffs)) return null;
  const records = (raw as { handoffs: unknown[] }).handoffs;
  // The top level alone (version, id_high_water, no other key), then the records: together what the whole-file schema checks.
  const head = handoffsFileSchema.safeParse({ ...raw, handoffs: [] });
  if (!head.success) return null;
  const handoffs = new Array<Handoff>(records.length);
  const record: z.ZodType<Handoff> = handoffSchema;
  for (let i = 0; i < records.length; i++) {
    const r = record.safeParse(records[i]);
    if (!r.success) return null;
    handoffs[i] = r.data;
    if ((i + 1) % RECORDS_PER_SLICE === 0) await pause();
  }
  return { ...head.data, handoffs };
}
