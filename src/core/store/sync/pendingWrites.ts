// A batch decided on this clone while the remote is unreachable (`offline: "local"`, docs/contract.md §13): each
// request that changed the store waits in sync.json as a pending write, with what the next contact needs to replay it.
// Under offline "refuse" a change is refused whole instead.
import type { ActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import type { LocalAuthority } from '../local/localAuthority';
import type { BatchWork, Decision } from '../stateAuthority';
import type { StoreTransaction } from '../storeTransaction';
import type { PendingWrite, SyncStateFile } from '../syncStateFile';

/**
 * The pending writes of a batch (`changedBy[i]`: whether works[i] changed the store), applied at `at`. They are taken
 * out of this clone's ledger: their replay must apply them, not answer them from it.
 */
export function pendingWrites(
  tx: StoreTransaction,
  works: readonly BatchWork[],
  changedBy: readonly boolean[],
  at: string,
): PendingWrite[] {
  const pending: PendingWrite[] = [];
  works.forEach((w, i) => {
    if (!changedBy[i] || !w.request) return;
    const request = w.request;
    const id = String(request.request_id);
    pending.push({
      request_id: id,
      action: String(request.action),
      agent: w.agent || (typeof request.agent === 'string' ? request.agent : null),
      handoff_id: refOf(request),
      request,
      applied_at: at,
      ...createdBy(tx, id),
    });
  });
  const ids = new Set(pending.map((p) => p.request_id));
  for (let i = tx.ledger.length - 1; i >= 0; i--) if (ids.has(tx.ledger[i].request_id)) tx.ledger.splice(i, 1);
  return pending;
}

/** The record a create applied offline made (its first history entry carries the request's id), if any. */
function createdBy(tx: StoreTransaction, requestId: string): Pick<PendingWrite, 'created'> {
  const marker = tx.snapshot.markerFor(requestId);
  const h = marker ? tx.find(marker.uid) : undefined;
  if (!h?.uid || h.state_history[0]?.request_id !== requestId) return {};
  return { created: { handoff_id: h.handoff_id, uid: h.uid, created_at: h.created_at } };
}

function refOf(request: Record<string, unknown>): string | null {
  const r = request.handoffId ?? request.handoff_id;
  return typeof r === 'string' ? r : null;
}

/** What deciding a batch on this clone needs (remoteAuthority.ts, when the remote is unreachable). */
export interface OfflineBatch {
  tx: StoreTransaction;
  works: readonly BatchWork[];
  changedBy: readonly boolean[];
  why: ActionError;
}

/**
 * The remote unreachable: offline "refuse" refuses a change whole (nothing written, not a byte) and answers a batch
 * that changes nothing; offline "local" applies it here and keeps its writes pending in sync.json.
 */
export function decideOffline(local: LocalAuthority, state: SyncStateFile, config: SyncConfig, b: OfflineBatch): Decision {
  const { remote, ref } = config;
  if (config.offline === 'refuse' && b.tx.changed) throw b.why;
  const pending = pendingWrites(b.tx, b.works, b.changedBy, local.now().toISOString());
  local.adopt(b.tx);
  try {
    state.update((s) => s.pending.push(...pending));
  } catch (e) {
    local.logger.warn(`could not update .agentsync/sync.json: ${(e as Error).message}`);
  }
  b.works.forEach((w, i) =>
    w.onSync?.({ confirmed: false, pending: Boolean(b.changedBy[i]), remote, ref, reason: 'remote_unreachable', commit: null }),
  );
  return { kind: 'decided' };
}
