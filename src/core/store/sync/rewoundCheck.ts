// The ref only moves forward (docs/contract.md §13): a fetched head must hold everything this clone last adopted.
// Absent, or not descending from that commit, the remote lost writes this clone saw confirmed (the ref was deleted, or
// forced back), and writing on it would give their ids again.
import { ActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { StoreSnapshot } from '../storeSnapshot';
import type { SyncLocalState } from '../syncStateFile';
import type { SharedStateRef } from './sharedStateRef';
import { FORMAT_FILE, NEWEST_SHARED_FORMAT } from './sharedTreeLayout';
import { isShallow } from '../../git/stateRepository';

/** Whether sync.json's commit was adopted from this remote and ref (a changed sync config starts a new history). */
export function adoptedHere(s: SyncLocalState, config: SyncConfig): boolean {
  return !s.source || (s.source.remote === config.remote && s.source.ref === config.ref);
}

/** What a clone whose first sync fetched only the last commit (docs/contract.md §13) adds to the restore advice. */
const SHALLOW_RESTORE =
  "This clone's first sync fetched the shared state without its history, so if the remote refuses that push " +
  '("shallow update not allowed"), run it from a clone whose state repository has the whole history (where ' +
  '`git --git-dir=<its .git>/agentsync/@state.git rev-parse --is-shallow-repository` answers false, such as the ' +
  'clone that first wrote the shared state). ';

/** The commit a fetch must keep the history of, for the descent check below: sync.json's, when adopted from here. */
export function adoptedCommit(s: SyncLocalState, config: SyncConfig): string | null {
  return s.commit && adoptedHere(s, config) ? s.commit : null;
}

/** `remote_rewound`, nothing written, nothing pushed, when `head` does not hold the commit `last` adopted. */
export function assertNotRewound(ref: SharedStateRef, config: SyncConfig, last: SyncLocalState, head: string | null): void {
  if (!last.commit || head === last.commit || !adoptedHere(last, config)) return;
  if (head && ref.descends(head, last.commit)) return;
  const { remote } = config;
  const repository = ref.stateDir();
  throw new ActionError(
    'remote_rewound',
    `${config.ref} on the git remote "${remote}" ${head ? `is at ${head}, which does not contain` : 'no longer exists; it held'} ` +
      `${last.commit}, the shared state this clone last had: writes confirmed there would be lost and their ids given ` +
      `again. Nothing was changed and nothing was pushed. Restore it by pushing that commit back from this clone's ` +
      `state repository, which has it: git --git-dir=${repository} push --force ${remote} ${last.commit}:${config.ref}. ` +
      (isShallow(repository) ? SHALLOW_RESTORE : '') +
      'To start over from what the remote has instead, delete ' +
      ".agentsync/sync.json (this clone's records then join the remote's state as on a first contact).",
    { sync: { remote, ref: config.ref, commit: head, last_commit: last.commit } },
  );
}

/** Which of `uids` the shared state this clone last adopted from this remote and ref held (none when it cannot be read). */
export async function adoptedRecords(
  ref: SharedStateRef,
  config: SyncConfig,
  state: SyncLocalState,
  uids: readonly string[],
): Promise<Set<string>> {
  if (!state.commit || !adoptedHere(state, config)) return new Set();
  try {
    // A tree format: only the blobs of these uids are looked up (records/ is laid out alike in 2 and 3); format 1:
    // its one handoffs.json is read.
    const held2 = await ref.recordsByUid(state.commit, 'records', uids, NEWEST_SHARED_FORMAT);
    if (held2.size || (await ref.hasFile(state.commit, FORMAT_FILE))) return new Set(held2.keys());
    const got = await ref.view(state.commit, []);
    if (got?.view.format !== 1) return new Set();
    const held = new Set(StoreSnapshot.parse(got.view.blobs.handoffs!, false).handoffs.map((h) => h.uid));
    return new Set(uids.filter((u) => held.has(u)));
  } catch {
    return new Set();
  }
}
