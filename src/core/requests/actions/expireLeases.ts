// expireLeases: in-progress handoffs whose lease ran out go back to the queue, with a history entry,
// so work held by an agent that died is not stuck (docs/contract.md §6 liveness). Run periodically by watchers.
// Passed-over work is not requeued: it times out back to its origin (E010 / E022, timeOutPasses.ts).
// In sync mode another clone's clock wrote the record's times, so they decide nothing: a lease expires once this
// clone has itself seen the record unchanged for leaseMinutes on its own clock (docs/contract.md §4).
import { SYSTEM_AGENT } from '../../domain/agentId';
import { leaseExpired } from '../../domain/handoffAttention';
import { applyStatusChange, type ActionContext } from '../../store/handoffMutation';
import { passesInFlight } from '../../domain/passTimeouts';
import { timeOutPasses } from './timeOutPasses';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export function expireLeases(
  tx: StoreTransaction,
  ctx: ActionContext,
): { released: Handoff[]; timed_out: Handoff[]; returned: (Handoff | null)[] } {
  const timeouts = timeOutPasses(tx, ctx);
  if (!tx.config.releaseExpiredLeases) return { released: [], ...timeouts };
  const now = tx.now();
  // Everything in progress is seen now (what is no longer in progress is forgotten), before anything is judged.
  tx.leaseWatch?.sight(tx.handoffs, now, true);
  const expired = tx.handoffs.filter((h) => !h.return_to && ranOut(tx, h, now));
  // A holder waiting for a pass it made is not gone (passTimeouts.ts): its lease is left alone.
  const waiting = expired.length ? passesInFlight(tx.handoffs) : new Set<string>();
  const released = expired
    .filter((h) => !h.uid || !waiting.has(h.uid))
    .map((h) =>
      applyStatusChange(
        tx,
        { ...ctx, agent: ctx.agent || SYSTEM_AGENT },
        h,
        'queued',
        `lease expired (held by ${h.claimed_by ?? 'nobody'} until ${h.lease_expires_at})`,
        {
          claimed_by: null,
          claimed_at: null,
          claimed_session: undefined,
          lease_expires_at: null,
        },
      ),
    );
  return { released, ...timeouts };
}

function ranOut(tx: StoreTransaction, h: Handoff, now: Date): boolean {
  const watch = tx.leaseWatch;
  if (!watch) return leaseExpired(h, now);
  return h.status === 'in_progress' && !!h.lease_expires_at && watch.seenUnchangedFor(h, now, tx.config.leaseMinutes * 60_000);
}
