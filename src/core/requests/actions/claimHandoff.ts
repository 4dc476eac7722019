// claimHandoff: first writer wins (the store lock makes "first" well defined across processes).
import { ActionError } from '../../domain/errors';
import { formatNotice } from '../../domain/storeVersion';
import { applyStatusChange, auditEntry, type ActionContext } from '../../store/handoffMutation';
import { assertAuthority } from '../../domain/lifecycle';
import { holderText, isHolder, recordsSession } from '../../domain/agentSession';
import { resolvePassOverPolicy } from '../../domain/passOverPolicy';
import { checkRevision, requireHandoff } from './findHandoff';
import { assertNotWithdrawn } from '../../domain/withdrawal';
import { storeVersionFor, type Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';
import { assertLimitsEnforceable } from './claimLimits';

/**
 * A passed-over handoff's lease is the timeout_ms of the policy stored when it was passed (inline override included),
 * else its pair's; any other uses leaseMinutes from the config.
 */
export function leaseUntil(tx: StoreTransaction, from: Date, h: Handoff, holder: string): string {
  const ms = h.return_to
    ? (h.policy?.timeout_ms ?? resolvePassOverPolicy(tx.config, h.return_to, holder).timeout_ms)
    : tx.config.leaseMinutes * 60_000;
  // max_compute_time_ms caps the lease of a pass (docs/contract.md §6, "What a receiver may do").
  const cap = h.policy?.max_compute_time_ms;
  return new Date(from.getTime() + (cap && cap < ms ? cap : ms)).toISOString();
}

export function claimHandoff(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: { ref: string; expected_rev?: number; reason?: string },
): { handoff: Handoff; notice?: string } {
  const h = requireHandoff(tx, p.ref);
  assertNotWithdrawn(h);
  if (h.status === 'in_progress') {
    if (h.claimed_by === ctx.agent && isHolder(h, ctx.agent, ctx.session)) {
      // Re-claim by the holder: nothing changes, but an accepted action still leaves its audit line (docs/contract.md §9).
      tx.audit.push(auditEntry(ctx, h, h.status, h.status, 'already held by this agent', tx.now().toISOString()));
      return { handoff: h };
    }
    throw new ActionError(
      'already_claimed',
      `${h.handoff_id} is already claimed by ${holderText(h)}. Pick another handoff, or ask ${h.claimed_by ?? 'the holder'} to release it.`,
      {
        handoff_id: h.handoff_id,
        claimedBy: h.claimed_by ?? null,
        claimedSession: h.claimed_session ?? null,
      },
    );
  }
  if (h.status !== 'queued') {
    throw new ActionError('not_claimable', `${h.handoff_id} is ${h.status}; only a queued handoff can be claimed.`, {
      handoff_id: h.handoff_id,
      status: h.status,
    });
  }
  assertAuthority(h, 'owner', ctx.agent, tx.config.humans, 'claim');
  checkRevision(h, p.expected_rev);
  assertLimitsEnforceable(h, ctx.agent);
  const now = tx.now();
  // The first record with claimed_session turns the store into version 2, which AgentSync 0.4.0 cannot read (docs/contract.md §3).
  const firstSession = recordsSession(ctx.session) && storeVersionFor(tx.handoffs) === 1;
  const handoff = applyStatusChange(tx, ctx, h, 'in_progress', p.reason ?? 'claimed', {
    claimed_by: ctx.agent,
    claimed_at: now.toISOString(),
    // Recorded only when there is something to tell apart (a session id, a linked worktree), so a single checkout's
    // records keep the shape every clone reads (docs/upgrading.md).
    ...(recordsSession(ctx.session) ? { claimed_session: ctx.session } : {}),
    lease_expires_at: leaseUntil(tx, now, h, ctx.agent),
  });
  return firstSession ? { handoff, notice: SESSION_FORMAT_NOTICE } : { handoff };
}

const SESSION_FORMAT_NOTICE = formatNotice(
  2,
  'this claim records its session (claimed_session), a field AgentSync 0.4.0 cannot read. Upgrade AgentSync in every ' +
    'clone of this repository (docs/upgrading.md).',
);
