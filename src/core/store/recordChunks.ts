// The store file as AgentSync writes it (StoreSnapshot.serializeChunks): a fixed head, one block per record, a
// fixed tail. Splitting a file into those blocks lets a read reuse what it knows of a record whose text did not change.
export const STORE_HEAD = '{\n  "version": 1,\n  "handoffs": [\n';
export const STORE_TAIL = '\n  ]\n}\n';
/** Between two records: only here does a line of exactly four spaces of indent close one object and open the next. */
const BETWEEN = '\n    },\n    {\n';

/** One record's block, exactly as serializeChunks writes it. */
export function recordChunk(record: unknown): string {
  return '    ' + JSON.stringify(record, null, 2).replace(/\n/g, '\n    ');
}

/**
 * The text of each record, in order, when `text` is in the written layout (and has `count` records, when given);
 * otherwise null (a hand-formatted file: the caller then treats every record as new).
 */
export function splitRecordChunks(text: string, count?: number): string[] | null {
  if (count === 0 || !text.startsWith(STORE_HEAD) || !text.endsWith(STORE_TAIL)) return null;
  const parts = text.slice(STORE_HEAD.length, text.length - STORE_TAIL.length).split(BETWEEN);
  if (count !== undefined && parts.length !== count) return null;
  return parts.map((part, i) => (i > 0 ? '    {\n' : '') + part + (i < parts.length - 1 ? '\n    }' : ''));
}
