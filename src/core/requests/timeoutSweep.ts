// Where the timeout sweep runs (docs/agentsync-documentation.md, "Timeouts"), so a user sees timed-out passes handed
// back without asking: at the start of every batch of write requests, before a read when one is due, and on every
// drop-zone rescan (`agentsync watch`, the editor). The rule itself is passTimeouts.ts + actions/timeOutPasses.ts.
import { SYSTEM_AGENT } from '../domain/agentId';
import { timeOutPasses, type TimedOut } from './actions/timeOutPasses';
import { newUid } from '../domain/handoffIds';
import { dueTimeouts } from '../domain/passTimeouts';
import type { HandoffStore } from '../store/handoffStore';
import type { StoreTransaction } from '../store/storeTransaction';
import type { Replayer } from '../store/sync/remoteAuthority';

/** The sweep inside a batch, as its own step: a failure undoes only the sweep, never the request after it. */
export function sweepInBatch(tx: StoreTransaction, surface: string): TimedOut | null {
  const step = tx.begin();
  try {
    return timeOutPasses(tx, { action: 'passTimeout', agent: SYSTEM_AGENT, requestId: newUid(), surface });
  } catch {
    step.rollback();
    return null;
  }
}

/**
 * A cheap look at the store, then a write only if a timeout is due. Never fails: a store that cannot be written (a
 * read-only checkout) or read just keeps the work where it is, and the caller's own request reports any problem.
 */
export async function sweepDueTimeouts(store: HandoffStore, surface: string, replayer: Replayer): Promise<TimedOut | null> {
  try {
    if (dueTimeouts(store.read().handoffs, store.config().config, store.now()).length === 0) return null;
    return await store.transact((tx) => sweepInBatch(tx, surface), { replayer });
  } catch {
    return null;
  }
}
