// createHandoff: validate ownership, route, allocate the id under the lock, store as queued (or blocked).
import { assertKnownAgents } from '../../domain/configSchema';
import { ActionError } from '../../domain/errors';
import { auditEntry, boundedReason, type ActionContext } from '../../store/handoffMutation';
import { newHandoffRecord } from './newHandoffRecord';
import { loadByAgent, routeByCapabilities } from '../../domain/routing';
import { phaseOf, storedRequest } from '../../domain/workRequest';
import { actOnNoteTag, type TagOutcome } from './noteTags';
import { lineageAndHold } from './newWorkChecks';
import type { Handoff, HandoffStatus, OwnerMode } from '../../domain/handoffSchema';
import type { ParamsOf } from '../requestParams';
import type { StoreTransaction } from '../../store/storeTransaction';

type NewHandoff = ParamsOf<'createHandoff'>['handoff'];

interface Ownership {
  owner_mode: OwnerMode;
  to_agents: string[];
  status: HandoffStatus;
  reason: string;
}

function invalid(message: string, field: string): ActionError {
  return new ActionError('invalid_request', message, { field });
}

/** Routing rules 1-6 plus the owner-count rules of docs/contract.md §3. */
export function resolveOwnership(input: NewHandoff, tx: StoreTransaction): Ownership {
  const explicit = [...new Set(input.to_agents ?? [])];
  // Every agent named (sender and owners) must be a configured one when a list is configured (docs/contract.md §5).
  assertKnownAgents(tx.config, [input.from_agent, ...explicit]);
  const skipReason = input.no_handoff_reason?.trim();
  if (input.no_handoff_reason !== undefined && input.no_handoff_reason !== null && !skipReason) {
    throw invalid('handoff.no_handoff_reason must be a non-empty reason when the handoff is skipped, or null', 'handoff.no_handoff_reason');
  }
  if (skipReason) {
    return { owner_mode: input.owner_mode, to_agents: explicit, status: 'blocked', reason: boundedReason(`skipped: ${skipReason}`) };
  }
  if (input.owner_mode === 'single') {
    if (explicit.length !== 1)
      throw invalid(`owner_mode "single" needs exactly 1 agent in handoff.to_agents (got ${explicit.length})`, 'handoff.to_agents');
    return { owner_mode: 'single', to_agents: explicit, status: 'queued', reason: 'created' };
  }
  if (input.owner_mode === 'shared') {
    if (explicit.length !== 2)
      throw invalid(
        `owner_mode "shared" needs exactly 2 different agents in handoff.to_agents (got ${explicit.length})`,
        'handoff.to_agents',
      );
    return { owner_mode: 'shared', to_agents: explicit, status: 'queued', reason: 'created' };
  }
  // auto: rule 1, explicit targets win.
  if (explicit.length > 0) {
    if (explicit.length > 2)
      throw invalid(`owner_mode "auto" with explicit handoff.to_agents takes 1 or 2 agents (got ${explicit.length})`, 'handoff.to_agents');
    return {
      owner_mode: explicit.length === 1 ? 'single' : 'shared',
      to_agents: explicit,
      status: 'queued',
      reason: 'created with explicit owners',
    };
  }
  const required = [...new Set(input.required_capabilities ?? [])];
  if (required.length === 0)
    throw invalid(
      'owner_mode "auto" needs at least one entry in handoff.required_capabilities (or explicit handoff.to_agents)',
      'handoff.required_capabilities',
    );
  const routed = routeByCapabilities(required, tx.config, loadByAgent(tx.handoffs));
  if (routed.kind === 'routed')
    return { owner_mode: routed.owner_mode, to_agents: routed.to_agents, status: 'queued', reason: boundedReason(routed.explanation) };
  return { owner_mode: 'auto', to_agents: [], status: 'blocked', reason: boundedReason(routed.explanation) };
}

export interface Created {
  handoff: Handoff;
  /** What became of a tag in the note ([pass_over: x] / [return_to: y], noteTags.ts), when it has one. */
  tag?: TagOutcome;
  /** A [return_to] note: the work it completed (the note itself is the handoff that carries it back). */
  completed?: Handoff;
}

export function createHandoff(tx: StoreTransaction, ctx: ActionContext, p: ParamsOf<'createHandoff'>): Created {
  const input = p.handoff;
  const own = resolveOwnership(input, tx);
  const phase = phaseOf(input.phase, input.request, 'handoff.');
  const request = storedRequest(input.request);
  // The note is checked as a note first (a bad one is refused whole); then its tag, if any, may make it that action.
  const tagged = actOnNoteTag(tx, ctx, input, own.to_agents);
  if (tagged?.handoff)
    return { handoff: tagged.handoff, tag: tagged.outcome, ...(tagged.completed ? { completed: tagged.completed } : {}) };
  const actor = ctx.agent || input.from_agent;
  const { parent, hold } = lineageAndHold(tx, ctx, actor, input.from_agent, own);
  // A refused tag is part of the note's story: its first history entry says so, next to how it was routed.
  const t = tagged?.outcome;
  const routed = hold ?? own.reason;
  const reason = t ? boundedReason(`${routed}; [${t.tag}: ${t.agent}] refused: ${t.reason}${t.code ? ` (${t.code})` : ''}`) : routed;
  const status = hold ? 'blocked' : own.status;
  const record = newHandoffRecord(
    tx,
    ctx,
    { status, agent: actor, reason },
    {
      task_id: input.task_id ?? null,
      from_agent: input.from_agent,
      to_agents: own.to_agents,
      owner_mode: own.owner_mode,
      required_capabilities: [...new Set(input.required_capabilities ?? [])],
      summary: input.summary,
      notes: input.notes ?? '',
      no_handoff_reason: input.no_handoff_reason?.trim() || null,
      files: [...new Set(input.files ?? [])],
      branch: input.branch ?? null,
      commit: input.commit ?? null,
      ...(input.priority ? { priority: input.priority } : {}),
      ...(phase ? { phase } : {}),
      ...(request ? { request } : {}),
      ...(parent ? { parent_uid: parent.uid } : {}),
    },
  );
  tx.insert(record);
  tx.audit.push(auditEntry({ ...ctx, agent: actor }, record, null, status, reason, record.created_at));
  return { handoff: record, ...(tagged ? { tag: tagged.outcome } : {}) };
}
