// Idempotency by request_id (docs/contract.md §8): whether a request was seen before (the ledger, else the store's
// history), and what is recorded after it ran. Runs inside the store transaction.
import { ActionError } from '../domain/errors';
import type { StoreTransaction } from '../store/storeTransaction';
import type { ResponseEnvelope } from '../domain/responseEnvelope';

/** What is known of a request id before the request runs. */
export type Earlier =
  /** Never seen (or not hashable: no caller request_id). */
  | { kind: 'new' }
  /** The same request, answered before: that answer again. */
  | { kind: 'answered'; response: ResponseEnvelope }
  /** The same request, applied before its answer was recorded: answer from the record of handoff `uid`. */
  | { kind: 'applied'; uid: string }
  /** The id was used for another request: refused, not ledgered. */
  | { kind: 'reused'; error: ActionError }
  /** Ledgered without an answer (a read): run it again, but do not ledger it twice. */
  | { kind: 'ledgered' };

/** `hash` is null when the caller gave no request_id: such a request cannot be repeated. */
export function earlierRequest(tx: StoreTransaction, requestId: string, hash: string | null, readOnly: boolean): Earlier {
  if (hash === null) return { kind: 'new' };
  const seen = tx.ledgerEntry(requestId);
  if (seen) {
    // A different request under a used id is refused and not ledgered: the first request's answer stays.
    if (seen.hash !== hash) return { kind: 'reused', error: reusedId(requestId) };
    return seen.response ? { kind: 'answered', response: seen.response as ResponseEnvelope } : { kind: 'ledgered' };
  }
  // Without a ledger entry (a fresh clone, another machine, a crash before the ledger append) the store's
  // history may still name the id; it is a replay only if the recorded hash is this request's.
  const marked = readOnly ? undefined : tx.snapshot.markerFor(requestId);
  if (!marked) return { kind: 'new' };
  if (marked.hash !== hash) return { kind: 'reused', error: reusedId(requestId, marked.hash === undefined) };
  return { kind: 'applied', uid: marked.uid };
}

/** Ledgers a request seen for the first time: a write with its answer (the file name stripped), a read without. */
export function ledger(tx: StoreTransaction, requestId: string, hash: string, readOnly: boolean, response: ResponseEnvelope): void {
  if (readOnly) {
    tx.ledger.push({ request_id: requestId, hash });
    return;
  }
  const { request_file: _f, ...rest } = response;
  tx.ledger.push({ request_id: requestId, hash, response: rest });
}

function reusedId(requestId: string, unhashed = false): ActionError {
  const earlier = unhashed ? 'an earlier request (recorded without a hash, so it cannot be shown to be this one)' : 'a different request';
  return new ActionError(
    'request_id_reused',
    `request_id ${requestId} was already used for ${earlier}. Use a new request_id for a new request; nothing was changed.`,
  );
}
