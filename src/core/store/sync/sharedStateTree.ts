// What a shared-state commit holds (docs/contract.md §13): a tree of handoffs.json and ledger.jsonl, each a regular
// file, read with one `git cat-file --batch`; anything else on the ref is not AgentSync's state.

export const STATE_FILE = 'handoffs.json';
export const LEDGER_FILE = 'ledger.jsonl';
/** Every entry a shared-state commit's tree may hold (each a regular file); handoffs.json is required. */
export const SHARED_STATE_ENTRIES: readonly string[] = [STATE_FILE, LEDGER_FILE];

export interface BatchObject {
  type: string;
  data: Buffer;
}

/** `git cat-file --batch` output: per object "<oid> <type> <size>\n<bytes>\n", or "<name> missing\n" (then null). */
export function parseBatch(out: Buffer): (BatchObject | null)[] {
  const objects: (BatchObject | null)[] = [];
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const header = out.subarray(at, eol).toString('utf8');
    at = eol + 1;
    const m = /^[0-9a-f]+ (\S+) (\d+)$/.exec(header);
    if (!m) {
      objects.push(null); // "<name> missing" (or ambiguous): no such object or file in the commit
      continue;
    }
    const size = Number(m[2]);
    objects.push({ type: m[1], data: out.subarray(at, at + size) });
    at += size + 1;
  }
  return objects;
}

/**
 * What makes this object not a shared-state commit, or null when it is one: a commit whose tree has handoffs.json and
 * nothing but SHARED_STATE_ENTRIES, each a regular file. `hashBytes`: the length of a binary object id in the tree.
 */
export function notSharedState(object: BatchObject | null, tree: BatchObject | null, hashBytes: number): string | null {
  if (!object) return 'the object it names is missing';
  if (object.type !== 'commit') return `it names a ${object.type}, not a commit`;
  if (!tree) return "its commit's tree is missing";
  // A raw tree: per entry "<mode> <name>\0<binary id>".
  const extra: string[] = [];
  let hasState = false;
  for (let at = 0; at < tree.data.length;) {
    const nul = tree.data.indexOf(0, at);
    if (nul < 0) break;
    const entry = tree.data.subarray(at, nul).toString('utf8');
    const space = entry.indexOf(' ');
    const mode = entry.slice(0, space);
    const name = entry.slice(space + 1);
    at = nul + 1 + hashBytes;
    if (SHARED_STATE_ENTRIES.includes(name) && mode === '100644') hasState ||= name === STATE_FILE;
    else extra.push(mode === '40000' ? `${name}/` : name);
  }
  if (extra.length > 0) {
    const shown = extra.slice(0, 5).join(', ') + (extra.length > 5 ? `, and ${extra.length - 5} more` : '');
    return `its tree holds ${shown}, where a shared-state commit holds only ${SHARED_STATE_ENTRIES.join(' and ')}`;
  }
  if (!hasState) return `its tree has no ${STATE_FILE}`;
  return null;
}
