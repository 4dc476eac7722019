// What a shared-state commit holds (docs/contract.md §13): a tree of handoffs.json and ledger.jsonl, each a regular
// file, read with one `git cat-file --batch`; anything else on the ref is not AgentSync's state, and an object over its
// cap is refused before it is read (sharedStateSizes.ts).
import { ActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { oversized } from './sharedStateSizes';
import { ledgerProblem } from './sharedLedger';

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

/** What a tree entry's mode makes it, for a refusal that names why a shared-state file is not one. */
const ENTRY_KINDS: Readonly<Record<string, string>> = {
  '120000': 'a symbolic link',
  '100755': 'an executable file',
  '160000': 'a submodule (gitlink)',
  '40000': 'a folder',
};

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
    else if (SHARED_STATE_ENTRIES.includes(name)) extra.push(`${name} as ${ENTRY_KINDS[mode] ?? `mode ${mode}`}, not a regular file`);
    else extra.push(mode === '40000' ? `${name}/` : name);
  }
  if (extra.length > 0) {
    const shown = extra.slice(0, 5).join(', ') + (extra.length > 5 ? `, and ${extra.length - 5} more` : '');
    return `its tree holds ${shown}, where a shared-state commit holds only ${SHARED_STATE_ENTRIES.join(' and ')}`;
  }
  if (!hasState) return `its tree has no ${STATE_FILE}`;
  return null;
}

export interface SharedBlobs {
  handoffs: Buffer | null;
  ledger: string;
}

/** The names `git cat-file --batch(-check)` is asked for: the commit, its tree, handoffs.json, ledger.jsonl. */
export function sharedStateQuery(commit: string): string {
  return `${commit}\n${commit}^{tree}\n${commit}:${STATE_FILE}\n${commit}:${LEDGER_FILE}\n`;
}

/** `too_large` when an object of the commit (`--batch-check` output for sharedStateQuery) is over its cap. */
export function checkSizes(batchCheck: string, config: SyncConfig, commit: string): void {
  const over = oversized(batchCheck);
  if (!over) return;
  const { remote, ref } = config;
  throw new ActionError(
    'too_large',
    `${ref} on the git remote "${remote}" (${commit}) holds ${over}; it was not read. Nothing was changed and nothing was ` +
      `pushed. Restore the ref by pushing a good shared-state commit: git push --force ${remote} <good-commit>:${ref}.`,
    { sync: { remote, ref, commit } },
  );
}

/**
 * The blobs in `git cat-file --batch` output for sharedStateQuery. Anything but a commit whose tree holds exactly the
 * shared state's files is refused `store_invalid`: a code branch's commit or a blob is not an empty state, and a write
 * on top of it would replace it.
 */
export function sharedBlobs(batch: Buffer, config: SyncConfig, commit: string): SharedBlobs {
  const objects = parseBatch(batch);
  const wrong = notSharedState(objects[0], objects[1], commit.length / 2);
  if (wrong) throw notState(config, commit, wrong);
  const ledger = objects[3]?.type === 'blob' ? objects[3].data.toString('utf8') : '';
  const badLedger = ledgerProblem(ledger);
  if (badLedger) throw notState(config, commit, badLedger);
  return { handoffs: objects[2]?.type === 'blob' ? objects[2].data : null, ledger };
}

/** `store_invalid` for a ref that does not hold AgentSync's shared state; nothing was written or pushed. */
export function notState(config: SyncConfig, commit: string, what: string): ActionError {
  const { remote, ref } = config;
  return new ActionError(
    'store_invalid',
    `${ref} on the git remote "${remote}" (${commit}) is not AgentSync's shared state: ${what}. Nothing was changed and ` +
      'nothing was pushed. If something else uses that ref (a code branch), give AgentSync a ref of its own in ' +
      '.agentsync.json (sync.ref, e.g. the default "refs/agentsync/state"); if it was overwritten, restore it by pushing ' +
      `a good shared-state commit: git push --force ${remote} <good-commit>:${ref}.`,
    { sync: { remote, ref, commit } },
  );
}
