// Where the state a batch applies to is decided (docs/contract.md §12 and §13): this clone's handoffs.json under the
// lock (the local authority, HandoffStore's own), or the repository's git remote (sync/remoteAuthority.ts). The
// commit pipeline above it is the same: take a base, apply the waiting batch with the same dispatcher and rules,
// ask the authority to make the result the state; when the state moved under the batch, apply it again.
import type { Handoff } from '../domain/handoffSchema';
import type { StoreSnapshot } from './storeSnapshot';
import type { LedgerEntry, StoreTransaction } from './storeTransaction';

/** What a write's answer says about the remote (docs/contract.md §13), under data.sync (or `sync` on a refusal). */
export interface SyncOutcome {
  confirmed: boolean;
  remote: string;
  ref: string;
  commit?: string | null;
  attempts?: number;
  pending?: boolean;
  reason?: string;
  /** Provisional ids of offline creates the shared state gave other handoffs: each record's id now. */
  renumbered?: { from: string; to: string; uid: string }[];
}

/** One request's work inside a batch; `request` is the request itself (kept when it is applied offline). */
export interface BatchWork {
  work: (tx: StoreTransaction) => unknown;
  request?: Record<string, unknown>;
  /** The hash the ledger keeps for the request: its request_id names this request only when the hashes agree. */
  requestHash?: string;
  /** The request's agent, normalized (who is told if the remote revokes it). */
  agent?: string;
  onSync?: (outcome: SyncOutcome) => void;
}

/** A write applied offline, replayed against the shared state: its work, and what it answered then. */
export interface Replay {
  requestId: string;
  /**
   * `moved`: the provisional ids earlier replays' creates were renumbered from, to the ids the shared state gave them;
   * a later write naming one acts on the renumbered record, never on the handoff that now holds the old id.
   */
  work: (tx: StoreTransaction, moved: ReadonlyMap<string, string>) => { ok: boolean; reason?: string; message?: string };
  /** A create's record as this clone made it offline (its uid is kept, its id may change). */
  created?: { handoff_id: string; uid: string; created_at: string };
}

/** What a replay answered on the shared state; `renumbered`: the provisional id its create gave, and the id it has now. */
export interface Replayed {
  replay: Replay;
  ok: boolean;
  reason?: string;
  message?: string;
  renumbered?: { from: string; to: string; uid: string };
}

export interface BaseState {
  snapshot: StoreSnapshot;
  /** The request ledger a request_id is looked up in. */
  ledger: () => ReadonlyMap<string, LedgerEntry>;
  /** Records the archive pass may move out with this batch (the local authority only). */
  archivable: readonly Handoff[];
  /** Writes applied offline earlier, applied first to this base (the remote authority only). */
  replays: readonly Replay[];
}

export type Decision = { kind: 'decided' } | { kind: 'moved'; why: string };

export interface StateAuthority {
  /** The state the next attempt applies to. Called under the local lock. */
  base(): Promise<BaseState>;
  /**
   * Makes `tx` the state (the local file, or the remote's ref then the local file), or answers `moved` when the state
   * changed since `base()`. `works` are the batch's requests in order, `results` what each answered (to mark offline
   * writes pending, and to tell each its sync outcome); `replayed` what each replay answered.
   */
  decide(
    tx: StoreTransaction,
    base: BaseState,
    works: readonly BatchWork[],
    changedBy: readonly boolean[],
    replayed: readonly Replayed[],
  ): Promise<Decision>;
  /**
   * After `moved`: waits as this authority wants before attempt `attempt + 1`, or answers false when its retry budget
   * is spent (a count for the local file, a time for the remote); the batch is then refused with `exhausted`.
   */
  another(attempt: number): Promise<boolean>;
  exhausted(lastWhy: string): Error;
}
