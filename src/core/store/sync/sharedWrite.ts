// What a sync write pushes, in the format the shared state is in (docs/contract.md §13): the tree changes of the
// batch (sharedChanges.ts), the archive pass of format 2 inside the same commit, the upgrade to format 2, and this
// clone's archive following what the shared state archived.
import { handoffSchema, type Handoff } from '../../domain/handoffSchema';
import { ensureSafeDirectory } from '../../disk/safeDirectory';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { appendToArchive } from '../archive/archiveAppend';
import type { BatchWork } from '../stateAuthority';
import type { StoreSnapshot } from '../storeSnapshot';
import type { LedgerEntry, StoreTransaction } from '../storeTransaction';
import type { SyncLocalState } from '../syncStateFile';
import type { SharedBase } from './sharedBase';
import { format1Changes, format2Changes, format2Tree } from './sharedChanges';
import type { TreeChange } from './sharedTreeWriter';

/** The request ids a format-2 read looks up in the shared ledger: the batch's, the offline writes', the unsettled ones. */
export function requestIds(batch: readonly BatchWork[], s: SyncLocalState): string[] {
  const ids = batch.flatMap((w) => (typeof w.request?.request_id === 'string' ? [w.request.request_id] : []));
  return [...ids, ...s.pending.map((p) => p.request_id), ...(s.unsettled ?? []).map((u) => u.request_id)];
}

/**
 * Format 2's archive pass, in the write itself (so under the same compare-and-swap): the records due when the base was
 * read that the batch left as they were leave the open records. The records moved.
 */
export function archiveMoves(snapshot: StoreSnapshot, due: readonly Handoff[]): Handoff[] {
  const moved = due.filter((h) => snapshot.find(h.uid!) === h);
  if (moved.length) snapshot.removeArchived(new Set(moved.map((h) => h.uid!)));
  return moved;
}

/** The tree changes of a batch on `base` (null: no shared state yet, seeded in format 1 as 0.4.0 does). */
export function writeChanges(base: SharedBase | null, tx: StoreTransaction, archived: readonly Handoff[]): TreeChange[] {
  if (base?.format === 2) return format2Changes(base.records, tx.snapshot, archived, tx.ledger, base.highWater);
  return format1Changes(tx.snapshot, base?.ledger ?? new Map(), tx.ledger);
}

/**
 * The upgrade: the whole state in format 2, on top of the format-1 commit (its two files removed, its history kept).
 * `archived`: this clone's archive, joining the shared one by uid. `ledger`: the shared ledger and this batch's answers.
 */
export function upgradeChanges(
  base: SharedBase | null,
  tx: StoreTransaction,
  archived: readonly Handoff[],
  ledger: ReadonlyMap<string, LedgerEntry>,
): TreeChange[] {
  const all = new Map(ledger);
  for (const e of tx.ledger) if (e.response !== undefined) all.set(e.request_id, e);
  return format2Tree(tx.snapshot, archived, all, base?.format === 1);
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
  const what = upgrading ? 'the shared state in format 2 (agentsync sync --upgrade-format)' : `${lines.length} change(s)`;
  return `agentsync: ${what}\n\n${lines.slice(0, 50).join('\n')}\n`;
}
