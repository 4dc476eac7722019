// clearConflicts: a human acknowledges what the merge driver could not decide on its own (docs/contract.md §3 `conflicts`,
// docs/agentsync-documentation.md "Merge conflicts"). Only a human may clear them: the merge picked a winner
// deterministically, and it is a person who confirms that pick (or fixes the record) and makes the warning go.
import { isHuman } from '../../domain/agentId';
import { ActionError } from '../../domain/errors';
import { applyFieldChange, type ActionContext } from '../../store/handoffMutation';
import { checkRevision, requireHandoff } from './findHandoff';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export function clearConflicts(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: { ref: string; expected_rev?: number },
): { handoff: Handoff; cleared: number } {
  const h = requireHandoff(tx, p.ref);
  if (!isHuman(ctx.agent, tx.config.humans)) {
    throw new ActionError(
      'not_assigned',
      `${ctx.agent} may not clear the merge conflicts of ${h.handoff_id}: only a human ("human" or one of "humans" in ` +
        '.agentsync.json) may, after checking what the merge chose. Ask a human to review them.',
      { handoff_id: h.handoff_id, agent: ctx.agent },
    );
  }
  checkRevision(h, p.expected_rev);
  const count = h.conflicts?.length ?? 0;
  if (count === 0) {
    throw new ActionError('no_conflicts', `${h.handoff_id} has no merge conflicts to clear. Nothing was changed.`, {
      handoff_id: h.handoff_id,
    });
  }
  const fields = [...new Set(h.conflicts!.map((c) => c.field))].join(', ');
  const { conflicts: _cleared, ...rest } = h;
  const next = applyFieldChange(tx, ctx, rest, {}, `merge conflicts cleared (${count}: ${fields})`);
  return { handoff: next, cleared: count };
}
