// One batch under the lock (docs/contract.md §12 and §13): take the authority's base, apply the writes applied offline
// first, then every waiting request in order, each rolled back alone when it throws; ask the authority to make the
// result the state. When the state moved under the batch (git or a hand replaced the file; another clone pushed), or
// the remote's state must be fetched before a batch that pushes nothing is answered, the batch is applied again.
import { isActionError } from '../domain/errors';
import { withPreviousId } from '../domain/previousIds';
import type { BaseState, BatchWork, Replay, Replayed, StateAuthority } from './stateAuthority';
import type { StoreTransaction } from './storeTransaction';

/** What one request of the batch answered: its work's value, or what it threw. */
export interface WorkResult {
  ok: boolean;
  value: unknown;
}

/**
 * Applies `batch` until its authority decides it; `begin` opens a transaction on a base, `retrying` is told before
 * each new attempt. Throws the authority's refusal when its retries are spent, or whatever an attempt threw.
 */
export async function applyBatch(
  authority: StateAuthority,
  batch: readonly BatchWork[],
  begin: (base: BaseState) => StoreTransaction,
  retrying: (why: string) => void,
): Promise<WorkResult[]> {
  for (let attempt = 1; ; attempt++) {
    const base = await authority.base();
    const tx = begin(base);
    // Writes applied offline go first, in their order: the remote confirms or revokes each (docs/contract.md §13).
    const moved = new Map<string, string>();
    const replayed = base.replays.map((replay) => applyReplay(tx, replay, moved));
    const results: WorkResult[] = [];
    const changedBy: boolean[] = [];
    for (const p of batch) {
      const step = tx.begin();
      const before = tx.changes();
      try {
        results.push({ ok: true, value: p.work(tx) });
      } catch (e) {
        step.rollback();
        results.push({ ok: false, value: e });
      }
      changedBy.push(tx.changes() > before);
    }
    const decision = await authority.decide(tx, base, batch, changedBy, replayed);
    if (decision.kind === 'decided') return results;
    if (!(await authority.another(attempt))) throw authority.exhausted(decision.why);
    retrying(decision.why);
  }
}

/** A write applied offline, applied again to the shared state; a refusal now means the remote revoked it. */
function applyReplay(tx: StoreTransaction, replay: Replay, moved: Map<string, string>): Replayed {
  const step = tx.begin();
  try {
    const answer = replay.work(tx, moved);
    const made = answer.ok && replay.created ? tx.find(replay.created.uid) : undefined;
    if (!made || made.handoff_id === replay.created!.handoff_id) return { replay, ...answer };
    // The shared state gave this create's provisional id to another handoff: the record keeps the old id in
    // previous_ids (an agent naming it is refused id_moved, movedIds.ts), and later replays naming it act on this one.
    const from = replay.created!.handoff_id;
    moved.set(from, made.handoff_id);
    tx.replace(withPreviousId(made, from));
    return { replay, ...answer, renumbered: { from, to: made.handoff_id, uid: made.uid! } };
  } catch (e) {
    step.rollback();
    return { replay, ok: false, reason: isActionError(e) ? e.reason : 'internal_error', message: (e as Error).message };
  }
}
