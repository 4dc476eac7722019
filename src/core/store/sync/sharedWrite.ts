// What a sync write pushes, in the format the shared state is in (docs/contract.md §13): the tree changes of the
// batch (sharedChanges.ts), the archive pass of a tree format inside the same commit, the upgrade to the newest format,
// and this clone's archive following what the shared state archived.
import { handoffSchema, type Handoff } from '../../domain/handoffSchema';
import { ensureSafeDirectory } from '../../disk/safeDirectory';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { appendToArchive } from '../archive/archiveAppend';
import type { BatchWork } from '../stateAuthority';
import type { StoreSnapshot } from '../storeSnapshot';
import type { StoreTransaction } from '../storeTransaction';
import type { SyncLocalState } from '../syncStateFile';
import type { SharedBase } from './sharedBase';
import { format1Changes, treeChanges, wholeTree } from './sharedChanges';
import type { SharedStateRef } from './sharedStateRef';
import { NEWEST_SHARED_FORMAT, recordPath } from './sharedTreeLayout';
import type { TreeChange } from './sharedTreeWriter';

/** The request ids a tree format's read looks up in the shared ledger: the batch's, the offline writes', the unsettled ones. */
export function requestIds(batch: readonly BatchWork[], s: SyncLocalState): string[] {
  const ids = batch.flatMap((w) => (typeof w.request?.request_id === 'string' ? [w.request.request_id] : []));
  return [...ids, ...s.pending.map((p) => p.request_id), ...(s.unsettled ?? []).map((u) => u.request_id)];
}

/**
 * A tree format's archive pass, in the write itself (so under the same compare-and-swap): the records due when the base was
 * read that the batch left as they were leave the open records. The records moved.
 */
export function archiveMoves(snapshot: StoreSnapshot, due: readonly Handoff[]): Handoff[] {
  const moved = due.filter((h) => snapshot.find(h.uid!) === h);
  if (moved.length) snapshot.removeArchived(new Set(moved.map((h) => h.uid!)));
  return moved;
}

/** What a write on `head` (read as `base`; both null: no shared state yet) pushes. */
export interface PushedWrite {
  ref: SharedStateRef;
  head: string | null;
  base: SharedBase | null;
  tx: StoreTransaction;
  /** The records this write archives (its archive pass). */
  archived: readonly Handoff[];
  /** The records only this clone's archive holds, joining the shared one at this clone's first contact. */
  joins: readonly Handoff[];
  /** `agentsync sync --upgrade-format` on an older format. */
  upgrading: boolean;
  /** This clone's whole archive (read only by an upgrade from format 1, which it seeds). */
  localArchive: () => readonly Handoff[];
  now: Date;
}

/** The tree changes of a write: the batch's (and its archive pass, and old ledger answers pruned), or the upgrade's. */
export async function changesToPush(w: PushedWrite): Promise<TreeChange[]> {
  if (w.upgrading) return upgradeChanges(w);
  const { base, tx } = w;
  // No shared state yet: seeded in format 1, as 0.4.0 does, so every clone can read it until someone upgrades.
  if (!base || base.format === 1) return format1Changes(tx.snapshot, base?.ledger ?? new Map(), tx.ledger);
  const archived = [...w.archived, ...w.joins];
  const changes = treeChanges(base.format, base.records, tx.snapshot, archived, tx.ledger, base.highWater, tx.contexts);
  if (w.head) changes.push(...(await w.ref.expiredLedger(w.head, changes, w.now)));
  return changes;
}

/**
 * The upgrade: the whole state in the newest format, on top of the older commit, its history kept. From format 1, its
 * two files are removed and this clone's whole archive seeds the shared one. From format 2, the shared archive's blobs
 * move to their new paths by object id (none is read or sent again), and only the records this clone's archive alone
 * holds join it.
 */
async function upgradeChanges(w: PushedWrite): Promise<TreeChange[]> {
  const all = new Map(w.base?.ledger ?? []);
  for (const e of w.tx.ledger) if (e.response !== undefined) all.set(e.request_id, e);
  if (w.base?.format !== 2 || !w.head) return wholeTree(NEWEST_SHARED_FORMAT, w.tx.snapshot, w.localArchive(), all, w.base?.format === 1);
  const shared = await w.ref.archiveEntries(w.head, 2);
  const held = new Set(shared.map((e) => e.uid));
  return [
    { path: 'archive', data: null },
    ...shared.map((e) => ({ path: recordPath('archive', e.uid, NEWEST_SHARED_FORMAT), oid: e.oid })),
    ...wholeTree(
      NEWEST_SHARED_FORMAT,
      w.tx.snapshot,
      w.joins.filter((h) => !held.has(h.uid!)),
      all,
      false,
    ),
  ];
}

/**
 * This clone's archive follows the shared state's: the records this write archived, and those another clone archived
 * that this clone held open (`archivedElsewhere`), are appended (by uid, once: appendToArchive skips what it holds)
 * before handoffs.json lets go of them. Best effort: a failure leaves them readable in the shared state.
 */
export function followArchive(layout: WorkspaceLayout, records: readonly Handoff[], warn: (m: string) => void): void {
  if (records.length === 0) return;
  try {
    ensureSafeDirectory(layout.committedRoot, layout.archiveDir);
    appendToArchive(layout, records);
  } catch (e) {
    warn(
      `could not add ${records.length} archived handoff(s) to this clone's archive (${(e as Error).message}); the shared state holds them`,
    );
  }
}

/** An archived record's blob as a record, checked like any record from the remote; null when it is not one. */
export function parseArchivedRecord(bytes: Buffer): Handoff | null {
  try {
    const parsed = handoffSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success && parsed.data.uid ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The shared-state commit's message: what the batch did (its audit), or the upgrade. */
export function commitMessage(tx: StoreTransaction, upgrading: boolean): string {
  const lines = tx.audit.filter((a) => !a.refused).map((a) => `${a.action} ${a.handoff_id ?? ''} by ${a.agent ?? '?'}`.trim());
  const what = upgrading
    ? `the shared state in format ${NEWEST_SHARED_FORMAT} (agentsync sync --upgrade-format)`
    : `${lines.length} change(s)`;
  return `agentsync: ${what}\n\n${lines.slice(0, 50).join('\n')}\n`;
}
