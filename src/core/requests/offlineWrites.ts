// Writes applied offline (`offline: "local"`, docs/contract.md §13), seen from the requests: at the next contact each
// is turned back into work (its parameters checked again, its prepare step run again, outside the lock) and applied
// to the shared state first, which confirms or revokes it; a revoked write is told to its agent by the actions whose
// catalog entry says so (`tellsRevoked`). The store keeps the writes waiting and the verdicts (store/syncStateFile.ts).
import { describeIssues } from '../domain/handoffSchema';
import { requestHash } from '../domain/stableJson';
import type { ActionContext } from '../store/handoffMutation';
import type { Replay } from '../store/stateAuthority';
import type { StoreTransaction } from '../store/storeTransaction';
import type { Replayer } from '../store/sync/remoteAuthority';
import { SyncStateFile, type PendingWrite } from '../store/syncStateFile';
import type { ActionEnv } from './catalog/actionDefinition';
import { actionOf, isActionName, type ActionName } from './catalog';

/** What a replayed write answers on the shared state. */
export interface ReplayAnswer {
  ok: boolean;
  reason?: string;
  message?: string;
}

/** Runs one action inside the batch, as the dispatcher does for a request (ledgered under `actx.requestId`). */
export type ApplyAction = (
  tx: StoreTransaction,
  action: ActionName,
  params: Record<string, unknown>,
  actx: ActionContext,
  prepared: unknown,
) => ReplayAnswer;

/** How the writes waiting in sync.json become work again: each in turn, in the order they were applied. */
export function offlineReplayer(env: () => ActionEnv, apply: ApplyAction): Replayer {
  return async (pending) => {
    const out: Replay[] = [];
    for (const p of pending) out.push(await replayable(p, env, apply));
    return out;
  };
}

async function replayable(pending: PendingWrite, env: () => ActionEnv, apply: ApplyAction): Promise<Replay> {
  const request = pending.request;
  const action = String(request.action);
  const fail = (reason: string, message: string): Replay => ({
    requestId: pending.request_id,
    work: () => ({ ok: false, reason, message }),
  });
  if (!isActionName(action)) return fail('unknown_action', `Unknown action ${JSON.stringify(action)}.`);
  const spec = actionOf(action);
  const parsed = spec.params().safeParse(request);
  if (!parsed.success) return fail('invalid_request', describeIssues(parsed.error));
  const params = parsed.data as Record<string, unknown>;
  const actx: ActionContext = {
    action,
    agent: (params.agent as string | undefined) ?? '',
    requestId: pending.request_id,
    requestHash: requestHash(request),
    surface: 'sync',
    ...(pending.created ? { keep: { uid: pending.created.uid, created_at: pending.created.created_at } } : {}),
  };
  const prepared = spec.prepare ? await spec.prepare(env(), params) : undefined;
  return {
    requestId: pending.request_id,
    ...(pending.created ? { created: pending.created } : {}),
    work: (tx, moved) => {
      // A provisional id an earlier replayed create was renumbered from names that record, not the id's new holder.
      const named = (params.handoffId ?? params.handoff_id) as string | undefined;
      const renamed = named === undefined ? undefined : moved.get(named);
      return apply(tx, action, renamed ? { ...params, handoffId: renamed } : params, actx, prepared);
    },
  };
}

/**
 * Writes the remote revoked (applied offline, then lost to another clone) are told to their agent in the answer of
 * an action whose catalog entry has `tellsRevoked` (a briefing), under data.sync_revoked; `markTold`: they are marked
 * told once the batch is written, and not told again.
 */
export function tellRevocations(
  tx: StoreTransaction,
  data: Record<string, unknown> | undefined,
  syncStateFile: string,
  agent: string,
  tells: 'show' | 'markTold',
): Record<string, unknown> | undefined {
  const state = new SyncStateFile(syncStateFile);
  const mine = state.read().revoked.filter((r) => !agent || r.agent === agent);
  if (mine.length === 0) return data;
  if (tells === 'markTold') {
    const told = new Set(mine.map((r) => r.request_id));
    tx.afterCommit.push({
      what: '.agentsync/sync.json',
      run: () => state.update((s) => (s.revoked = s.revoked.filter((r) => !told.has(r.request_id)))),
    });
  }
  return { ...data, sync_revoked: mine };
}
