// The shared state's handoffs.json as a snapshot. It is input from the remote like any file: a broken one is refused,
// named where it is (the remote, the ref, the commit), with how to restore it.
import type { SyncConfig } from '../../domain/configSchema';
import { ActionError, isActionError } from '../../domain/errors';
import { StoreSnapshot } from '../storeSnapshot';

/** `previous`: the last snapshot this clone read or wrote, whose records need no second check when these bytes hold them. */
export function parseSharedState(
  bytes: Buffer,
  previous: Pick<StoreSnapshot, 'handoffs'> | undefined,
  config: SyncConfig,
  commit: string | null,
): StoreSnapshot {
  try {
    return StoreSnapshot.parse(bytes, false, { previous });
  } catch (e) {
    if (!isActionError(e)) throw e;
    const { remote, ref } = config;
    const what = e.message.replace(/^\.agentsync\/handoffs\.json /, '');
    throw new ActionError(
      e.reason,
      `The shared state on ${ref} of the git remote "${remote}" (commit ${commit}) is broken: ${what} ` +
        'Restore it by pushing a good commit to that ref (e.g. an earlier one: git push --force <remote> <good>:<ref>); nothing was changed here.',
      { ...e.details, sync: { remote, ref, commit } },
    );
  }
}
