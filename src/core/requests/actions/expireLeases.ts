// expireLeases: in-progress handoffs whose lease ran out go back to the queue, with a history entry,
// so work held by an agent that died is not stuck (docs/contract.md §6 liveness). Run periodically by watchers.
import { leaseExpired } from '../../domain/handoffAttention';
import { applyStatusChange, type ActionContext } from '../../store/handoffMutation';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export const SYSTEM_AGENT = 'agentsync';

export function expireLeases(tx: StoreTransaction, ctx: ActionContext): { released: Handoff[] } {
  if (!tx.config.releaseExpiredLeases) return { released: [] };
  const now = tx.now();
  const expired = tx.handoffs.filter((h) => leaseExpired(h, now));
  const released = expired.map((h) =>
    applyStatusChange(
      tx,
      { ...ctx, agent: ctx.agent || SYSTEM_AGENT },
      h,
      'queued',
      `lease expired (held by ${h.claimed_by ?? 'nobody'} until ${h.lease_expires_at})`,
      {
        claimed_by: null,
        claimed_at: null,
        lease_expires_at: null,
      },
    ),
  );
  return { released };
}
