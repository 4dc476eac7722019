// completeHandoff: the receiver's report; PROCEED → ready_for_review, STOP/CLARIFY → blocked for a human.
// A passed-over handoff (return_to set) also sends its result back to the originator.
import { checkReport } from '../../domain/completionReport';
import { applyStatusChange, type ActionContext } from '../../store/handoffMutation';
import { assertAuthority, findMove, legalTargets } from '../../domain/lifecycle';
import { ActionError } from '../../domain/errors';
import { assertHolder } from '../../domain/agentSession';
import { checkRevision, requireHandoff } from './findHandoff';
import { assertNotWithdrawn } from '../../domain/withdrawal';
import { createReturnHandoff } from './returnToOriginator';
import { joinGroupIfDone } from './groupJoin';
import { applyOnReturn, type NotifyMarker } from './returnPolicy';
import type { CompletionResult, Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export function completeHandoff(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: { ref: string; result?: CompletionResult; expected_rev?: number; note?: string | null },
): { handoff: Handoff; returned?: Handoff | null; notify?: NotifyMarker | null } {
  const h = requireHandoff(tx, p.ref);
  // A report of a withdrawn pass is refused as what it is (docs/contract.md §6, "Withdraw"): no return is made.
  assertNotWithdrawn(h);
  // Work nobody holds yet (returnHandoff and a pass back to return_to come here too): say the step that is missing.
  if (h.status === 'queued')
    throw new ActionError(
      'illegal_transition',
      `${h.handoff_id} is queued: nobody has claimed it. Claim it first (claimHandoff, or ` +
        `\`agentsync claim ${h.handoff_id} --agent ${ctx.agent}\`), then complete or return it.`,
      { from: h.status, to: 'ready_for_review', legal: legalTargets(h.status) },
    );
  const stops = p.result !== undefined && p.result.decision !== 'PROCEED';
  const to = stops ? 'blocked' : 'ready_for_review';
  const move = findMove(h.status, h.status === 'in_progress' ? to : 'ready_for_review');
  assertAuthority(h, move.authority, ctx.agent, tx.config.humans, 'complete');
  if (h.status === 'in_progress') assertHolder(h, ctx.agent, ctx.session, tx.config.humans, 'complete');
  checkRevision(h, p.expected_rev);
  checkReport(p.result, h);
  const reason = stops
    ? `${p.result!.decision}: ${p.result!.issues.join('; ') || p.result!.context_summary || 'needs a human'}`.slice(0, 2_000)
    : 'completed';
  const handoff = applyStatusChange(tx, ctx, h, to, reason, { result: p.result ?? h.result ?? null, lease_expires_at: null });
  if (stops || !handoff.return_to) return { handoff };
  // A child of a fan-out comes back with its group, once, when the last of them has ended (groupJoin.ts).
  if (handoff.group) return { handoff, returned: joinGroupIfDone(tx, ctx, handoff), notify: null };
  const returned = createReturnHandoff(tx, ctx, handoff, p.note ?? null);
  const applied = returned.policy ? applyOnReturn(tx, ctx, handoff, returned.policy) : null;
  return { handoff: applied ?? handoff, returned, notify: returned.notify ?? null };
}
