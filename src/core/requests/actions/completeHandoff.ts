// completeHandoff: the receiver's report; PROCEED → ready_for_review, STOP/CLARIFY → blocked for a human.
// A passed-over handoff (return_to set) also sends its result back to the originator.
import { ActionError } from '../../domain/errors';
import { applyStatusChange, type ActionContext } from '../../store/handoffMutation';
import { assertAuthority, findMove } from '../../domain/lifecycle';
import { checkRevision, requireHandoff } from './findHandoff';
import { createReturnHandoff } from './returnToOriginator';
import { applyOnReturn, type NotifyMarker } from './returnPolicy';
import type { CompletionResult, Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export const MAX_CONTEXT_SUMMARY_TOKENS = 500;

/** A rough token estimate (about 4 characters a token for English text and code). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function checkResult(result: CompletionResult | undefined): void {
  if (!result) return;
  const tokens = estimateTokens(result.context_summary);
  if (tokens > MAX_CONTEXT_SUMMARY_TOKENS) {
    throw new ActionError(
      'context_summary_too_long',
      `result.context_summary is about ${tokens} tokens; the limit is ${MAX_CONTEXT_SUMMARY_TOKENS} (about ${MAX_CONTEXT_SUMMARY_TOKENS * 4} characters). Shorten it and put detail in result.findings.`,
      { tokens, limit: MAX_CONTEXT_SUMMARY_TOKENS },
    );
  }
}

export function completeHandoff(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: { ref: string; result?: CompletionResult; expected_rev?: number; note?: string | null },
): { handoff: Handoff; returned?: Handoff | null; notify?: NotifyMarker | null } {
  const h = requireHandoff(tx, p.ref);
  const stops = p.result !== undefined && p.result.decision !== 'PROCEED';
  const to = stops ? 'blocked' : 'ready_for_review';
  const move = findMove(h.status, h.status === 'in_progress' ? to : 'ready_for_review');
  assertAuthority(h, move.authority, ctx.agent, tx.config.humans, 'complete');
  checkRevision(h, p.expected_rev);
  checkResult(p.result);
  const reason = stops
    ? `${p.result!.decision}: ${p.result!.issues.join('; ') || p.result!.context_summary || 'needs a human'}`.slice(0, 2_000)
    : 'completed';
  const handoff = applyStatusChange(tx, ctx, h, to, reason, { result: p.result ?? h.result ?? null, lease_expires_at: null });
  if (stops || !handoff.return_to) return { handoff };
  const returned = createReturnHandoff(tx, ctx, handoff, p.note ?? null);
  const applied = returned.policy ? applyOnReturn(tx, ctx, handoff, returned.policy) : null;
  return { handoff: applied ?? handoff, returned, notify: returned.notify ?? null };
}
