// assignHandoff: a human gives a blocked or queued handoff to named agents, e.g. one that routing blocked because no
// configured agent has its capabilities (docs/agentsync-documentation.md, "assignHandoff").
import { isHuman } from '../../domain/agentId';
import { assertKnownAgents } from '../../domain/configSchema';
import { ActionError } from '../../domain/errors';
import { applyStatusChange, applyFieldChange, boundedReason, type ActionContext } from '../../store/handoffMutation';
import { checkRevision, requireHandoff } from './findHandoff';
import type { Handoff } from '../../domain/handoffSchema';
import type { StoreTransaction } from '../../store/storeTransaction';

export interface AssignInput {
  ref: string;
  to_agents: string[];
  reason?: string;
  expected_rev?: number;
}

export { awaitsAssignment } from '../../domain/lifecycle';

export function assignHandoff(tx: StoreTransaction, ctx: ActionContext, p: AssignInput): { handoff: Handoff } {
  const h = requireHandoff(tx, p.ref);
  if (!isHuman(ctx.agent, tx.config.humans)) {
    throw new ActionError(
      'not_assigned',
      `Only a human may assign ${h.handoff_id} (agent "human" or one listed in humans of .agentsync.json); ${ctx.agent} is not one.`,
      { handoff_id: h.handoff_id, agent: ctx.agent },
    );
  }
  if (h.status !== 'blocked' && h.status !== 'queued') {
    throw new ActionError('illegal_transition', `${h.handoff_id} is ${h.status}; only a blocked or queued handoff can be assigned.`, {
      handoff_id: h.handoff_id,
      status: h.status,
      legal: ['blocked', 'queued'],
    });
  }
  const to = [...new Set(p.to_agents)];
  if (to.length < 1 || to.length > 2) {
    throw new ActionError('invalid_request', `to_agents names ${to.length} distinct agents; assign to one (single) or two (shared).`, {
      field: 'to_agents',
    });
  }
  assertKnownAgents(tx.config, to); // a typo must not hand work to nobody
  checkRevision(h, p.expected_rev);
  const reason = boundedReason(`assigned to ${to.join(', ')}${p.reason ? `: ${p.reason}` : ''}`);
  const patch: Partial<Handoff> = { to_agents: to, owner_mode: to.length === 2 ? 'shared' : 'single' };
  if (h.status === 'blocked') return { handoff: applyStatusChange(tx, ctx, h, 'queued', reason, patch) };
  return { handoff: applyFieldChange(tx, ctx, h, patch, reason) };
}
