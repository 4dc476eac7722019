// returnHandoff: the receiver of a pass-over completes it and its result returns to the originator.
import { delegationError } from '../../domain/delegationErrors';
import { type ActionContext } from '../../store/handoffMutation';
import { parseReturnTag } from '../../domain/handoffTags';
import { completeHandoff } from './completeHandoff';
import { requireHandoff } from './findHandoff';
import type { CompletionResult, Handoff } from '../../domain/handoffSchema';
import type { NotifyMarker } from './returnPolicy';
import type { StoreTransaction } from '../../store/storeTransaction';

/** Work in progress that was passed over with a return: returnHandoff sends it back to `return_to`. */
export function returnsToOriginator(h: Handoff): boolean {
  return h.status === 'in_progress' && !!h.return_to;
}

export function returnHandoff(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: { ref: string; result?: CompletionResult; message?: string; note?: string | null; expected_rev?: number },
): { handoff: Handoff; returned: Handoff | null; notify: NotifyMarker | null } {
  const h = requireHandoff(tx, p.ref);
  if (!h.return_to) {
    throw delegationError(
      'RETURN_CONTEXT_LOST',
      `${h.handoff_id} was not passed over with a return; complete it with completeHandoff instead.`,
      { handoff_id: h.handoff_id },
    );
  }
  const tag = p.message ? parseReturnTag(p.message) : null;
  if (tag && tag.returnTo !== h.return_to) {
    throw delegationError(
      'INVALID_WORK_OUTPUT',
      `The message returns to ${tag.returnTo}, but ${h.handoff_id} returns to ${h.return_to}. Use [return_to: ${h.return_to}].`,
      {
        handoff_id: h.handoff_id,
        return_to: h.return_to,
      },
    );
  }
  const out = completeHandoff(tx, ctx, {
    ref: p.ref,
    result: p.result,
    expected_rev: p.expected_rev,
    note: tag?.summary ?? p.note ?? null,
  });
  return { handoff: out.handoff, returned: out.returned ?? null, notify: out.notify ?? null };
}
