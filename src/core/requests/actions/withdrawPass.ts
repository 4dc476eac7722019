// withdrawPass: the originator of passed work (or a human) takes the pass back (docs/contract.md §6, "Withdraw"). The
// pass ends `withdrawn`: no return is created, its lease ends, the stop gate no longer holds it, and its receiver is
// told at its next hook or request (hooks/withdrawNotices.ts); whatever the receiver sends about it later is refused.
import { ActionError } from '../../domain/errors';
import { applyStatusChange, boundedReason, type ActionContext } from '../../store/handoffMutation';
import { assertMayWithdraw, assertNotWithdrawn, isPassedWork, receiversOf } from '../../domain/withdrawal';
import { isTerminal, storeVersionFor, type Handoff } from '../../domain/handoffSchema';
import { legalTargets } from '../../domain/lifecycle';
import { V3_FORMAT_NOTICE } from '../../domain/storeVersion';
import { checkRevision, requireHandoff } from './findHandoff';
import { joinGroupIfDone } from './groupJoin';
import type { StoreTransaction } from '../../store/storeTransaction';

export interface WithdrawOutput {
  handoff: Handoff;
  /** Who is told: the holder, else the owners. */
  told: string[];
  /** Set when this withdrawal first makes the store version 3 (docs/contract.md §3). */
  notice?: string;
  /** The fan-out's joined return, when this child was the last of its group to end (groupJoin.ts). */
  returned?: Handoff;
}

export function withdrawPass(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: { ref: string; reason: string; expected_rev?: number },
): WithdrawOutput {
  const h = requireHandoff(tx, p.ref);
  assertNotWithdrawn(h);
  if (!isPassedWork(h)) {
    throw new ActionError(
      'illegal_transition',
      `A handoff cannot go from ${h.status} to withdrawn: ${h.handoff_id} was not passed over (no pass-over chain), and only ` +
        'passed work can be withdrawn. Escalate it, or block it for a human.',
      { from: h.status, to: 'withdrawn', legal: legalTargets(h.status) },
    );
  }
  if (isTerminal(h.status)) {
    throw new ActionError('illegal_transition', `${h.handoff_id} is ${h.status}, which is final; it cannot be withdrawn.`, {
      from: h.status,
      to: 'withdrawn',
      legal: [],
    });
  }
  assertMayWithdraw(h, ctx.agent, tx.config.humans);
  checkRevision(h, p.expected_rev);
  const firstWithdrawal = storeVersionFor(tx.handoffs) < 3;
  // claimed_by and claimed_session stay: they say whose work was taken back, and who is told (receiversOf).
  const handoff = applyStatusChange(tx, ctx, h, 'withdrawn', boundedReason(p.reason), { lease_expires_at: null });
  // A withdrawn fan-out child has ended: its group joins now if it was the last (docs/contract.md §6).
  const returned = handoff.group ? joinGroupIfDone(tx, ctx, handoff) : null;
  return {
    handoff,
    told: receiversOf(handoff),
    ...(firstWithdrawal ? { notice: V3_FORMAT_NOTICE } : {}),
    ...(returned ? { returned } : {}),
  };
}
