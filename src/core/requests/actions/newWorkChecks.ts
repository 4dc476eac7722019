// What a new handoff from createHandoff owes the loop rules (docs/contract.md §6, "Loops across the graph"): the work
// the creating session holds becomes its parent and the lineage is checked (E002, E003); past the pair limit it is
// made blocked for a human. passOver runs the same domain rules on its own chain (passOver.ts).
import { checkLineage, inferredParent, proposedLineage } from '../../domain/handoffLineage';
import { LIMITS, type Handoff, type HandoffStatus } from '../../domain/handoffSchema';
import { pairHold } from '../../domain/pairLimit';
import { pairLimitOf, resolvePassOverPolicy } from '../../domain/passOverPolicy';
import type { ActionContext } from '../../store/handoffMutation';
import type { StoreTransaction } from '../../store/storeTransaction';

/**
 * The parent of a handoff `actor` creates from `from` to `own.to_agents` (the one handoff it holds, if any), and the
 * pair limit's hold reason when it must wait for a human. Throws E002/E003 when the lineage would loop or run too deep.
 */
export function lineageAndHold(
  tx: StoreTransaction,
  ctx: ActionContext,
  actor: string,
  from: string,
  own: { to_agents: readonly string[]; status: HandoffStatus },
): { parent: Handoff | null; hold: string | null } {
  const humans = tx.config.humans;
  const parent = inferredParent(tx.handoffs, actor, ctx.session, humans);
  if (parent?.uid) {
    for (const to of own.to_agents) {
      const maxDepth = Math.min(resolvePassOverPolicy(tx.config, actor, to).max_chain_depth, LIMITS.chain - 1);
      checkLineage(
        proposedLineage(parent, actor, to, (uid) => tx.find(uid), humans),
        maxDepth,
        parent,
      );
    }
  }
  let hold: string | null = null;
  if (own.status === 'queued') {
    for (const to of own.to_agents) {
      hold ??= pairHold(tx.handoffs, from, to, { actor, now: tx.now(), humans }, pairLimitOf(tx.config, from, to));
    }
  }
  return { parent: parent?.uid ? parent : null, hold };
}
