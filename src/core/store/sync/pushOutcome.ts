// A push whose outcome is not known (docs/contract.md §13, "Honest when offline"): the conversation broke after it
// started (the reply lost, the time ran out), so the remote may have taken the pack. One fetch settles it: the write is
// applied again to what the ref holds, and the shared ledger answers it if it landed (or it is pushed, if it did not).
// When that fetch fails too, the answer is `remote_outcome_unknown`, never "nothing was changed": the writes are kept
// as unsettled in sync.json, and the next contact finds out whether the ref holds them.
import { ActionError, isActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import type { BatchWork } from '../stateAuthority';
import type { StoreSnapshot } from '../storeSnapshot';
import type { LedgerEntry } from '../storeTransaction';
import type { SyncLocalState, SyncStateFile, Settled, Unsettled } from '../syncStateFile';
import type { SharedStateRef } from './sharedStateRef';

/** The writes of a batch whose push was sent and not answered. */
export function unsettledWrites(works: readonly BatchWork[], changedBy: readonly boolean[], commit: string, at: string): Unsettled[] {
  const out: Unsettled[] = [];
  works.forEach((w, i) => {
    if (!changedBy[i] || !w.request) return;
    const r = w.request;
    const ref = r.handoffId ?? r.handoff_id;
    out.push({
      request_id: String(r.request_id),
      action: String(r.action),
      agent: w.agent || (typeof r.agent === 'string' ? r.agent : null),
      handoff_id: typeof ref === 'string' ? ref : null,
      commit,
      sent_at: at,
      ...(w.requestHash ? { hash: w.requestHash } : {}),
    });
  });
  return out;
}

/** git's words in a remote_* refusal (its `detail`), else its message. */
function said(e: ActionError): string {
  return typeof e.details.detail === 'string' ? e.details.detail : e.message;
}

/** The refusal when neither the push's reply nor a fetch came: the remote may hold the write; how to retry it safely. */
export function outcomeUnknown(config: SyncConfig, push: ActionError, fetch: ActionError, unsettled: readonly Unsettled[]): ActionError {
  const { remote, ref } = config;
  const ids = unsettled.map((u) => u.request_id);
  const retry =
    ids.length === 1
      ? `Retry with the same request id: the same command with --request-id ${ids[0]} (or "request_id": "${ids[0]}" in a request)`
      : `Retry each with its own request id (${ids.join(', ')}): --request-id <id>, or "request_id" in a request`;
  return new ActionError(
    'remote_outcome_unknown',
    `The push to ${ref} on the git remote "${remote}" was sent, but its answer was lost (${said(push)}), ` +
      `and a fetch to check failed too (${said(fetch)}): the remote may or may not have applied this write. ` +
      `${retry}; it is answered, never applied twice. \`agentsync sync\` finds out at the next contact (sync --status lists it until then).`,
    { sync: { remote, ref, commit: unsettled[0]?.commit ?? null }, request_ids: ids, detail: said(push) },
  );
}

/**
 * Settles the unsettled writes against a fetched view: `landed(u)` says whether the shared state holds the write (its
 * request_id in the shared ledger or a record's history, or its commit in the ref's history). Moves them to `settled`.
 */
export function settleUnknown(s: SyncLocalState, landed: (u: Unsettled) => boolean, at: string): Settled[] {
  const now: Settled[] = (s.unsettled ?? []).map((u) => ({
    request_id: u.request_id,
    action: u.action,
    handoff_id: u.handoff_id,
    outcome: landed(u) ? 'applied' : 'not_applied',
    settled_at: at,
  }));
  s.unsettled = [];
  s.settled = [...(s.settled ?? []), ...now];
  return now;
}

/** Why the last attempt must be tried again (remoteAuthority.ts decides the next attempt's base from it). */
export interface RetryReason {
  /** Its push lost a race (a pause before the next), or its view was only the last known one (none). */
  contended: boolean;
  /** The server failed to update the ref: if a fetch finds it still at `expected`, it did not move. */
  stuck?: { expected: string | null; detail: string };
  /** The push found no remote (offline "local"): the next attempt decides on this clone's own store. */
  unreachable?: ActionError;
  /** The push lost its reply and a fetch found the ref here: the next attempt decides on it. */
  prefetched?: string | null;
}

/** What the lost-reply and settling steps need of the authority. */
export interface OutcomeContext {
  config: SyncConfig;
  ref: SharedStateRef;
  state: SyncStateFile;
  now(): string;
  noteError(e: unknown): void;
  bestEffort(fn: () => void): void;
}

/**
 * The push was sent and its reply lost: one fetch, then the batch applied again to what the ref holds (the shared
 * ledger answers the writes that landed; the others are pushed again): the retry to make. No fetch either: offline
 * "local" decides here (the replay at the next contact is answered by the ledger if it landed); "refuse" throws
 * remote_outcome_unknown, keeping the writes unsettled in sync.json.
 */
export async function afterLostReply(
  ctx: OutcomeContext,
  works: readonly BatchWork[],
  changedBy: readonly boolean[],
  commit: string,
  lost: ActionError,
): Promise<{ retry: RetryReason; why: string }> {
  try {
    return {
      retry: { contended: false, prefetched: await ctx.ref.fetch() },
      why: 'the push lost its reply; fetched to see whether it landed',
    };
  } catch (e) {
    if (isActionError(e) && e.reason === 'remote_unreachable' && ctx.config.offline === 'local') {
      ctx.noteError(e);
      return {
        retry: { contended: false, unreachable: e },
        why: 'the push lost its reply and the remote is unreachable; deciding on this clone',
      };
    }
    if (!isActionError(e)) {
      ctx.noteError(e);
      throw e;
    }
    const unsettled = unsettledWrites(works, changedBy, commit, ctx.now());
    ctx.bestEffort(() => ctx.state.update((s) => (s.unsettled = [...(s.unsettled ?? []), ...unsettled])));
    // The error kept for `sync --status` is this one: the fetch's own ("… Nothing was changed") would deny a write
    // the remote may hold.
    const unknown = outcomeUnknown(ctx.config, lost, e, unsettled);
    ctx.noteError(unknown);
    throw unknown;
  }
}

/**
 * Writes whose outcome was unknown, settled by a fetched view of the shared state (`head`, its records and its
 * ledger). The request_id found is the write only when its hash agrees: another clone may have landed another request
 * under the same id (a retry's id chosen by hand), which does not make this one applied.
 */
export function settleFromView(
  ctx: OutcomeContext,
  head: string | null,
  snapshot: StoreSnapshot,
  shared: ReadonlyMap<string, LedgerEntry>,
): void {
  if (!ctx.state.read().unsettled?.length) return;
  const same = (hash: string | undefined, u: Unsettled) => u.hash === undefined || hash === undefined || hash === u.hash;
  const landed = (u: Unsettled) => {
    const entry = shared.get(u.request_id);
    const marker = snapshot.markerFor(u.request_id);
    return (
      (entry !== undefined && same(entry.hash, u)) ||
      (marker !== undefined && same(marker.hash, u)) ||
      (head !== null && ctx.ref.descendsQuietly(head, u.commit))
    );
  };
  ctx.bestEffort(() => ctx.state.update((s) => settleUnknown(s, landed, ctx.now())));
}
