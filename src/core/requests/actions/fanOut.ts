// A pass to several agents at once (docs/contract.md §6, "Fan-out and join"): one child per receiver, each an ordinary
// pass (same checks, same policy per pair) sharing a group; groupJoin.ts gives the origin one return when all have ended.
import { normalizeAgentId } from '../../domain/agentId';
import { delegationError } from '../../domain/delegationErrors';
import { ActionError } from '../../domain/errors';
import { storeVersionFor } from '../../domain/handoffSchema';
import { newUid } from '../../domain/handoffIds';
import { FAN_OUT } from '../../domain/passGroup';
import { V3_FORMAT_NOTICE } from '../../domain/storeVersion';
import type { ActionContext } from '../../store/handoffMutation';
import type { StoreTransaction } from '../../store/storeTransaction';
import { requireHandoff } from './findHandoff';
import type { PassOverInput, PassOverOutput } from './passOverTypes';

type SinglePass = (tx: StoreTransaction, ctx: ActionContext, p: PassOverInput) => PassOverOutput;

/**
 * Makes the children through `single` (passOver itself), so a receiver refused for any reason refuses the whole
 * fan-out: the request throws and its transaction stores none of them.
 */
export function fanOut(tx: StoreTransaction, ctx: ActionContext, p: PassOverInput & { to: string[] }, single: SinglePass): PassOverOutput {
  const names = p.to.map(normalizeAgentId);
  if (names.length < FAN_OUT.min || names.length > FAN_OUT.max)
    throw new ActionError(
      'invalid_request',
      `A pass to several agents names ${FAN_OUT.min} to ${FAN_OUT.max} of them (got ${names.length}); to pass to one agent give "to": "<agent>".`,
      { field: 'to' },
    );
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice)
    throw new ActionError(
      'invalid_request',
      `${twice} is named twice in "to"; each receiver of a fan-out gets one child, so name it once.`,
      {
        field: 'to',
      },
    );
  const parent = p.handoffId ? requireHandoff(tx, p.handoffId) : undefined;
  // Handing work back to its origin is a return, of the one agent's own work: never one branch of a fan-out.
  if (parent?.return_to && names.includes(parent.return_to))
    throw delegationError(
      'CYCLE_DETECTED',
      `${parent.return_to} is where ${parent.handoff_id} returns to; return it (returnHandoff) instead of fanning it out to that agent.`,
      { to: names },
    );
  const notice = storeVersionFor(tx.handoffs) < 3 ? V3_FORMAT_NOTICE : undefined;
  const group = { id: newUid(tx.now().getTime()), size: names.length };
  const children = names.map((to) => single(tx, ctx, { ...p, to, group }).handoff);
  return { handoff: children[0], handoffs: children, ...(notice ? { notice } : {}) };
}
