// A shared-state view (sharedView.ts) as the base a batch applies to (docs/contract.md §13): its records as a
// snapshot, checked like any store, and what a write on it needs to say what changed (formats 2 and 3: the open
// records' bytes as read, the id high-water mark).
import type { SyncConfig } from '../../domain/configSchema';
import type { StoreSnapshot } from '../storeSnapshot';
import type { LedgerEntry } from '../storeTransaction';
import { treeStoreBytes } from './sharedChanges';
import { parseSharedLedger } from './sharedLedger';
import { parseSharedState } from './sharedSnapshot';
import { notState } from './sharedStateTree';
import type { SharedView } from './sharedView';
import type { TreeFormat } from './sharedTreeLayout';

export interface SharedBase {
  format: 1 | TreeFormat;
  /** The shared records; null when format 1's commit has no handoffs.json (cannot happen: the view refuses it). */
  snapshot: StoreSnapshot;
  /** Format 1: the whole ledger; a tree format: the answers of the request ids the batch carries. */
  ledger: Map<string, LedgerEntry>;
  /** A tree format: the open records' bytes as read, by uid (a write compares with them); empty for format 1. */
  records: ReadonlyMap<string, Buffer>;
  highWater: string | undefined;
}

export function sharedBase(
  view: SharedView,
  previous: Pick<StoreSnapshot, 'handoffs'> | undefined,
  config: SyncConfig,
  commit: string,
): SharedBase {
  if (view.format === 1) {
    const snapshot = parseSharedState(view.blobs.handoffs!, previous, config, commit);
    return { format: 1, snapshot, ledger: parseSharedLedger(view.blobs.ledger), records: new Map(), highWater: snapshot.highWater };
  }
  const snapshot = parseSharedState(treeStoreBytes(view.records, view.highWater), previous, config, commit);
  // Each blob holds the one record its path names: a blob holding two, or another uid, is not this format's.
  const wrong = snapshot.handoffs.length !== view.records.size || snapshot.handoffs.find((h) => !view.records.has(h.uid!));
  if (wrong) throw notState(config, commit, 'a record blob of its records/ tree does not hold the one record its path names');
  return { format: view.format, snapshot, ledger: view.ledger, records: view.records, highWater: view.highWater };
}
