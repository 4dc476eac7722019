// transitionHandoff: any legal move of docs/contract.md §4, with the side rules each move carries.
import { ActionError } from '../../domain/errors';
import { applyStatusChange, boundedReason, type ActionContext } from '../../store/handoffMutation';
import { assertAuthority, findMove } from '../../domain/lifecycle';
import { assertHolder } from '../../domain/agentSession';
import { isHuman } from '../../domain/agentId';
import { isPairLimitHold } from '../../domain/pairLimit';
import { claimHandoff } from './claimHandoff';
import { assertNotWithdrawn, isPassedWork, receiversOf } from '../../domain/withdrawal';
import { withdrawPass } from './withdrawPass';
import { joinGroupIfDone } from './groupJoin';
import { acceptRemaining } from '../../domain/fileReview';
import { checkRevision, requireHandoff } from './findHandoff';
import type { Handoff, HandoffStatus } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export interface TransitionInput {
  ref: string;
  to: HandoffStatus;
  reason?: string;
  expected_rev?: number;
}

export function transitionHandoff(tx: StoreTransaction, ctx: ActionContext, p: TransitionInput): { handoff: Handoff; returned?: Handoff } {
  const out = move(tx, ctx, p);
  // Escalating a fan-out child ends it: its group may join now (groupJoin.ts).
  const joined = out.handoff.group ? joinGroupIfDone(tx, ctx, out.handoff) : null;
  return joined ? { ...out, returned: joined } : out;
}

/** Back to its receiver for revision (prior_attempts + 1), or escalated once that passes maxAttempts. */
export function reviseOrEscalate(
  tx: StoreTransaction,
  ctx: ActionContext,
  h: Handoff,
  reason: string,
  patch: Partial<Handoff> = {},
): Handoff {
  const attempts = h.prior_attempts + 1;
  if (attempts > tx.config.maxAttempts) {
    const why = boundedReason(`returned for revision ${attempts} times (over maxAttempts ${tx.config.maxAttempts}): ${reason}`);
    return applyStatusChange(tx, ctx, h, 'escalated', why, { ...patch, prior_attempts: attempts });
  }
  return applyStatusChange(tx, ctx, h, 'in_progress', boundedReason(reason), { ...patch, prior_attempts: attempts });
}

function move(tx: StoreTransaction, ctx: ActionContext, p: TransitionInput): { handoff: Handoff } {
  const h = requireHandoff(tx, p.ref);
  // The receiver of a withdrawn pass is told so (docs/contract.md §6, "Withdraw"); anyone else meets the final status.
  if (receiversOf(h).includes(ctx.agent)) assertNotWithdrawn(h);
  // Withdrawing passed work is withdrawPass's move, with its rules; for any other handoff it is no legal move (findMove).
  if (p.to === 'withdrawn' && isPassedWork(h))
    return withdrawPass(tx, ctx, { ref: p.ref, reason: p.reason ?? 'withdrawn', expected_rev: p.expected_rev });
  // Claiming through a transition keeps claim semantics (first writer wins, idempotent for the holder).
  if (p.to === 'in_progress' && (h.status === 'queued' || h.status === 'in_progress')) return claimHandoff(tx, ctx, p);

  const move = findMove(h.status, p.to);
  assertAuthority(h, move.authority, ctx.agent, tx.config.humans, move.verb.replace(/_/g, ' '));
  // Work held by the pair limit waits for a human (docs/contract.md §6, "Loops across the graph"): no agent lets it go.
  if (move.verb === 'unblock' && isPairLimitHold(h) && !isHuman(ctx.agent, tx.config.humans))
    throw new ActionError(
      'not_assigned',
      `${ctx.agent} may not unblock ${h.handoff_id}: the pair limit holds it for a human (${h.from_agent} and ${h.to_agents.join(', ')} ` +
        'handed each other too much work in the last hour). Ask a human to look at their handoffs and unblock it.',
      { handoff_id: h.handoff_id, agent: ctx.agent, allowed: [...tx.config.humans] },
    );
  // Block and release of held work belong to its holder, the session that claimed it (docs/contract.md §4).
  if (h.status === 'in_progress' && move.authority === 'owner') assertHolder(h, ctx.agent, ctx.session, tx.config.humans, move.verb);
  checkRevision(h, p.expected_rev);
  const reason = p.reason ?? move.verb;

  switch (move.verb) {
    case 'release':
      return {
        handoff: applyStatusChange(tx, ctx, h, 'queued', reason, {
          claimed_by: null,
          claimed_at: null,
          claimed_session: undefined,
          lease_expires_at: null,
        }),
      };
    case 'return_for_revision':
      return { handoff: reviseOrEscalate(tx, ctx, h, reason) };
    case 'approve': {
      // Approving accepts every file of the report not yet reviewed (docs/contract.md §6, "Per-file review").
      const result = acceptRemaining(h, ctx.agent, tx.now().toISOString());
      return { handoff: applyStatusChange(tx, ctx, h, 'approved', reason, result ? { result } : {}) };
    }
    case 'unblock':
      if (p.to === 'in_progress') {
        const holder = h.claimed_by ?? (h.to_agents.includes(ctx.agent) ? ctx.agent : null);
        if (!holder) {
          throw new ActionError(
            'illegal_transition',
            `${h.handoff_id} has no holder to give it back to; unblock it to queued so an owner can claim it.`,
            {
              from: h.status,
              to: p.to,
              legal: ['queued', 'escalated'],
            },
          );
        }
        return {
          handoff: applyStatusChange(tx, ctx, h, 'in_progress', reason, {
            claimed_by: holder,
            claimed_at: h.claimed_at ?? tx.now().toISOString(),
          }),
        };
      }
      return {
        handoff: applyStatusChange(tx, ctx, h, 'queued', reason, {
          claimed_by: null,
          claimed_at: null,
          claimed_session: undefined,
          lease_expires_at: null,
        }),
      };
    default:
      return { handoff: applyStatusChange(tx, ctx, h, p.to, reason) };
  }
}
