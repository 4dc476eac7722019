// heartbeat (renew the lease) and updateTodos (replace the todo list whole, like todowrite).
import { ActionError } from '../../domain/errors';
import { assertHolder } from '../../domain/agentSession';
import { applyFieldChange, type ActionContext } from '../../store/handoffMutation';
import { assertAuthority } from '../../domain/lifecycle';
import { leaseUntil } from './claimHandoff';
import { leaseHalfUsed } from '../../hooks/leaseRenewal';
import { checkRevision, requireHandoff } from './findHandoff';
import { assertNotWithdrawn } from '../../domain/withdrawal';
import { isTerminal, type Handoff, type Todo } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export function heartbeat(tx: StoreTransaction, ctx: ActionContext, p: { ref: string }): { handoff: Handoff; renewed: boolean } {
  const h = requireHandoff(tx, p.ref);
  assertNotWithdrawn(h);
  if (h.status !== 'in_progress') {
    throw new ActionError('not_claimable', `${h.handoff_id} is ${h.status}; only an in-progress handoff has a lease to renew.`, {
      handoff_id: h.handoff_id,
      status: h.status,
    });
  }
  assertAuthority(h, 'owner', ctx.agent, tx.config.humans, 'renew the lease of');
  assertHolder(h, ctx.agent, ctx.session, tx.config.humans, 'renew the lease of');
  // In sync mode every renewal is a push: one before half the lease is used buys nothing (docs/contract.md §13).
  if (tx.config.sync && leaseHalfUsed(h, tx.now().getTime()) === false) return { handoff: h, renewed: false };
  const renewed = applyFieldChange(tx, ctx, h, { lease_expires_at: leaseUntil(tx, tx.now(), h, ctx.agent) }, 'lease renewed');
  return { handoff: renewed, renewed: true };
}

export function updateTodos(
  tx: StoreTransaction,
  ctx: ActionContext,
  p: { ref: string; todos: Todo[]; expected_rev?: number },
): { handoff: Handoff } {
  const h = requireHandoff(tx, p.ref);
  assertNotWithdrawn(h);
  // Finished work has nothing left to do (docs/contract.md §6, "Todos"): its list stays as it was when it finished.
  if (isTerminal(h.status))
    throw new ActionError('illegal_transition', `${h.handoff_id} is ${h.status}; only open work has todos to update.`, {
      handoff_id: h.handoff_id,
      status: h.status,
    });
  assertAuthority(h, 'involved', ctx.agent, tx.config.humans, 'update the todos of');
  checkRevision(h, p.expected_rev);
  // One thing at a time, as todowrite keeps it: a second in_progress todo is refused, naming both.
  const active = p.todos.filter((t) => t.status === 'in_progress');
  if (active.length > 1)
    throw new ActionError(
      'invalid_request',
      `todos: ${active.map((t) => JSON.stringify(t.id)).join(', ')} are in_progress at once; keep one in_progress and the rest pending.`,
      { field: 'todos', in_progress: active.map((t) => t.id) },
    );
  const ids = new Set<string>();
  for (const t of p.todos) {
    if (ids.has(t.id))
      throw new ActionError('invalid_request', `todos: id ${JSON.stringify(t.id)} appears twice; give every todo a unique id.`, {
        field: 'todos',
      });
    ids.add(t.id);
  }
  return { handoff: applyFieldChange(tx, ctx, h, { todos: p.todos }, `todos updated (${p.todos.length})`) };
}
