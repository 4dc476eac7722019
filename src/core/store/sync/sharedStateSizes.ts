// How large each object of a shared-state commit may be (docs/contract.md §13): the ref is input from the remote, and
// an object is sized (`git cat-file --batch-check`) before it is read, so a huge blob there is a clear refusal, never a
// buffer overflow of the reading git nor hundreds of megabytes in memory.
import { MAX_STORE_BYTES } from '../storeReader';

/** The caps, in the order the read asks for the objects: the commit, its tree, handoffs.json, ledger.jsonl. */
const CAPS: readonly { what: string; max: number }[] = [
  { what: 'a commit object', max: 1024 * 1024 },
  { what: 'a tree', max: 64 * 1024 },
  { what: 'a handoffs.json', max: MAX_STORE_BYTES },
  { what: 'a ledger.jsonl', max: MAX_STORE_BYTES },
];

/**
 * What is over its cap in `git cat-file --batch-check` output for those four names ("<oid> <type> <size>" a line, or
 * "<name> missing"), said for a message; null when all fit.
 */
export function oversized(batchCheck: string): string | null {
  const lines = batchCheck.split('\n');
  for (let i = 0; i < CAPS.length; i++) {
    const m = /^[0-9a-f]+ \S+ (\d+)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const size = Number(m[1]);
    if (size > CAPS[i].max) return `${CAPS[i].what} of ${size} bytes, over the ${CAPS[i].max}-byte limit`;
  }
  return null;
}
