// Shared lookups for actions that name an existing handoff.
import { ActionError } from '../../domain/errors';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

/**
 * The handoff a request names, from the store or the archive: an archived one answers as what it is (merged or
 * escalated), so every action refuses it by its usual rule, and a change to it is refused as `archived`.
 */
export function requireHandoff(tx: StoreTransaction, ref: string): Handoff {
  const h = tx.lookup(ref);
  if (!h)
    throw new ActionError(
      'not_found',
      `No handoff ${ref}. List them with the listHandoffs action (or \`agentsync list\`) and use a handoff_id or uid from there.`,
      { handoffId: ref },
    );
  return h;
}

export function checkRevision(h: Handoff, expected: number | undefined): void {
  if (expected === undefined || expected === (h.rev ?? 0)) return;
  throw new ActionError(
    'stale_revision',
    `${h.handoff_id} changed since you read it (expected rev ${expected}, it is now ${h.rev ?? 0}). Read it again and retry if your change still applies.`,
    {
      handoff_id: h.handoff_id,
      expected_rev: expected,
      current_rev: h.rev ?? 0,
      status: h.status,
    },
  );
}
