// passOver: agent A hands work to B, with return to A and loop prevention (docs/contract.md §6).
import { AGENT_ID_PATTERN, isHuman, normalizeAgentId } from '../../domain/agentId';
import { assertSectionUsable, knownAgents } from '../../domain/configSchema';
import { delegationError } from '../../domain/delegationErrors';
import { ActionError } from '../../domain/errors';
import { auditEntry, boundedReason, type ActionContext } from '../../store/handoffMutation';
import { newHandoffRecord } from './newHandoffRecord';
import { parsePassOverTag } from '../../domain/handoffTags';
import { keySource, pairLimitOf, resolveWithOverride } from '../../domain/passOverPolicy';
import { checkChain, checkLineage, inferredParent, proposedLineage } from '../../domain/handoffLineage';
import { pairHold } from '../../domain/pairLimit';
import { requireHandoff } from './findHandoff';
import { returnHandoff } from './returnHandoff';
import { isTerminal, LIMITS } from '../../domain/handoffSchema';
import { assertAuthority } from '../../domain/lifecycle';
import type { StoreTransaction } from '../../store/storeTransaction';
import type { PassOverInput, PassOverOutput } from './passOverTypes';
import { fanOut } from './fanOut';
import { formatNotice } from './formatNotice';
import { storeContext } from './passContext';
import { checkContext, CONTEXT_LIMITS } from '../../domain/workContext';
import { phaseOf, storedRequest } from '../../domain/workRequest';

export type { PassOverInput, PassOverOutput } from './passOverTypes';
export { checkChain } from '../../domain/handoffLineage';

export function passOver(tx: StoreTransaction, ctx: ActionContext, p: PassOverInput): PassOverOutput {
  if (Array.isArray(p.to)) return fanOut(tx, ctx, { ...p, to: p.to }, passOver);
  const tag = p.message ? parsePassOverTag(p.message) : null;
  if (p.message && !tag && !p.to) {
    throw new ActionError(
      'invalid_request',
      'message carries no [pass_over: <agent>] tag; add one, or give "to", "summary" and "reason".',
      { field: 'message' },
    );
  }
  const rawTo = p.to ?? tag?.to ?? '';
  const to = normalizeAgentId(rawTo);
  const summary = (p.summary ?? tag?.summary ?? '').trim();
  const reason = (p.reason ?? tag?.reason ?? '').trim();
  const from = ctx.agent;
  // Before anything else: a broken policy section refuses every pass (E030), whatever else the request says.
  assertSectionUsable(tx.config, 'passOver');
  if (!AGENT_ID_PATTERN.test(to))
    throw delegationError('INVALID_SUBAGENT', `"${rawTo}" is not an agent id (lowercase letters, digits, "-" or "_").`, { to: rawTo });
  const known = knownAgents(tx.config);
  if (known && !known.has(to)) {
    throw delegationError(
      'INVALID_SUBAGENT',
      `Unknown agent ${to}; the configured agents are ${[...known].join(', ')}. Add it to agentCapabilities in .agentsync.json or pick one of them.`,
      { to },
    );
  }
  const parent = p.handoffId ? requireHandoff(tx, p.handoffId) : undefined;
  // A pass back to the work's return_to is the return (docs/contract.md §6;
  // docs/agentsync-documentation.md, "Pass-over delegation"): same effect as returnHandoff, report included.
  if (parent?.return_to && parent.return_to === to && from !== to && !isTerminal(parent.status)) {
    const back = returnHandoff(tx, ctx, { ref: parent.handoff_id, result: p.result, note: summary || null, expected_rev: p.expected_rev });
    return { handoff: back.returned ?? back.handoff, returned: back.returned, completed: back.handoff, notify: back.notify };
  }
  if (!summary)
    throw new ActionError('invalid_request', 'summary is required: say what is being passed over (or put it after the tag in message).', {
      field: 'summary',
    });
  if (!reason)
    throw new ActionError('invalid_request', 'reason is required, e.g. "code_review" (or a "Reason:" line in message).', {
      field: 'reason',
    });
  // `return` marks work handed back to its origin, which that origin may review (lifecycle.ts isReturnedWork): a pass
  // must not forge it, or any receiver could approve work it was handed.
  if (reason === 'return')
    throw new ActionError(
      'invalid_request',
      'reason "return" is reserved for work handed back to its origin; to hand work back, use returnHandoff (or pass it to its return_to).',
      {
        field: 'reason',
      },
    );

  if (parent) {
    if (isTerminal(parent.status)) {
      throw new ActionError(
        'not_claimable',
        `${parent.handoff_id} is ${parent.status}; finished work cannot be passed on. Create a follow-up handoff instead.`,
        { handoff_id: parent.handoff_id, status: parent.status },
      );
    }
    assertAuthority(parent, 'involved', from, tx.config.humans, 'pass on');
  }
  // The work it comes from (docs/contract.md §6, "Loops across the graph"): the one named, else the one the caller holds.
  const lineageParent = parent ?? inferredParent(tx.handoffs, from, ctx.session, tx.config.humans);
  const before = parent?.chain?.length ? [...parent.chain] : parent ? [parent.from_agent] : [];
  if (before[before.length - 1] !== from) before.push(from);
  const chain = [...before, to];
  const { policy, sources } = resolveWithOverride(tx.config, from, to, p.override);
  const phase = phaseOf(p.phase, p.request);
  const request = storedRequest(p.request);
  // A chain of depth d holds d + 1 agents; the store keeps at most LIMITS.chain, whatever the configured depth.
  const maxDepth = Math.min(policy.max_chain_depth, LIMITS.chain - 1);
  checkChain(chain, maxDepth);
  if (lineageParent && !isHuman(from, tx.config.humans))
    checkLineage(
      proposedLineage(lineageParent, from, to, (uid) => tx.find(uid), tx.config.humans),
      maxDepth,
      lineageParent,
    );
  if (!policy.enabled)
    throw delegationError(
      'DISABLED_PAIR',
      `Passing from ${from} to ${to} is disabled by ${keySource(sources, 'enabled')} (false). ` +
        'Pick another agent, or ask the user to enable the pair in .agentsync.json.',
      { chain, source: keySource(sources, 'enabled') },
    );
  if (!policy.can_receive_passes)
    throw delegationError('PERMISSION_DENIED', `${to} does not accept passes (${keySource(sources, 'can_receive_passes')} is false).`, {
      chain,
      source: keySource(sources, 'can_receive_passes'),
    });

  if (p.context) checkContext(p.context, policy.max_context_size_bytes ?? CONTEXT_LIMITS.defaultBytes);
  const returnRequired = p.return_required ?? true;
  const hold = pairHold(
    tx.handoffs,
    from,
    to,
    { actor: from, now: tx.now(), humans: tx.config.humans },
    pairLimitOf(tx.config, from, to, p.override),
  );
  const opening = hold
    ? { status: 'blocked' as const, agent: from, reason: boundedReason(hold) }
    : { status: 'queued' as const, agent: from, reason: boundedReason(`passed over: ${reason}`) };
  const record = newHandoffRecord(tx, ctx, opening, {
    task_id: parent?.task_id ?? p.noteFields?.task_id ?? null,
    from_agent: from,
    to_agents: [to],
    owner_mode: 'single',
    summary,
    notes: p.notes ?? '',
    files: [...new Set(p.files ?? parent?.files ?? [])],
    branch: parent?.branch ?? p.noteFields?.branch ?? null,
    commit: parent?.commit ?? p.noteFields?.commit ?? null,
    return_to: returnRequired ? from : null,
    parent_uid: lineageParent?.uid ?? null,
    chain,
    reason,
    lease_expires_at: null,
    ...(parent?.result?.context_summary ? { previous_findings: parent.result.context_summary } : {}),
    policy,
    ...(p.noteFields?.priority ? { priority: p.noteFields.priority } : {}),
    ...(phase ? { phase } : {}),
    ...(request ? { request } : {}),
    ...(p.group ? { group: p.group } : {}),
  });
  const notice = formatNotice(tx, record);
  tx.insert(record);
  if (p.context && p.layout && record.uid) storeContext(tx, p.layout, record.uid, p.context);
  tx.audit.push(auditEntry(ctx, record, null, opening.status, boundedReason(`passed over to ${to}: ${hold ?? reason}`), record.created_at));
  return notice ? { handoff: record, notice } : { handoff: record };
}
