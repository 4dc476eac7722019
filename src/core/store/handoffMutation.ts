// The single place a record changes: new history entry, updated_at, rev, audit line, decisions line.
import type { AuditEntry } from './auditLog';
import type { AgentSession } from '../domain/agentSession';
import { isTerminal, LIMITS, type Handoff, type HandoffStatus } from '../domain/handoffSchema';
import type { StoreTransaction } from './storeTransaction';

export interface ActionContext {
  action: string;
  agent: string;
  requestId: string;
  /** Hash of the request (only when the caller gave the request_id, i.e. when it can be replayed). */
  requestHash?: string;
  surface: string;
  /**
   * Where the request came from: the agent's session id, worktree and branch (domain/agentSession.ts); undefined for
   * a surface that knows none of them (the editor's own requests).
   */
  session?: AgentSession | null;
  /** A replayed offline create: the record keeps the uid and created_at it was given offline. */
  keep?: { uid: string; created_at: string };
}

/**
 * What a history entry records about the request that made it: its id and, when it can be replayed, its hash.
 * A replay found in history is answered only when the hash matches (docs/agentsync-documentation.md, "Requests").
 */
export function requestMark(ctx: ActionContext): { request_id: string; request_hash?: string } {
  return ctx.requestHash ? { request_id: ctx.requestId, request_hash: ctx.requestHash } : { request_id: ctx.requestId };
}

/**
 * A history reason AgentSync composes ("skipped: <reason>", a routing explanation, "passed over: <reason>") fits the
 * schema's reason limit: the tail is cut and marked, the full text stays in the field it came from.
 */
export function boundedReason(text: string): string {
  return text.length <= LIMITS.reason ? text : `${text.slice(0, LIMITS.reason - 1)}…`;
}

export function auditEntry(
  ctx: ActionContext,
  h: Pick<Handoff, 'handoff_id' | 'uid'> | null,
  from: string | null,
  to: string | null,
  reason: string | null,
  ts: string,
): AuditEntry {
  return {
    ts,
    action: ctx.action,
    agent: ctx.agent || null,
    handoff_id: h?.handoff_id ?? null,
    uid: h?.uid ?? null,
    from_status: from,
    to_status: to,
    request_id: ctx.requestId,
    surface: ctx.surface,
    reason,
  };
}

/** Moves `h` to `to` (the caller has checked legality and authority) and records everything about the move. */
export function applyStatusChange(
  tx: StoreTransaction,
  ctx: ActionContext,
  h: Handoff,
  to: HandoffStatus,
  reason: string | null,
  patch: Partial<Handoff> = {},
): Handoff {
  const ts = tx.now().toISOString();
  const next: Handoff = {
    ...h,
    ...patch,
    status: to,
    updated_at: ts,
    rev: (h.rev ?? 0) + 1,
    state_history: [...h.state_history, { status: to, agent: ctx.agent, timestamp: ts, reason, ...requestMark(ctx) }],
  };
  tx.replace(next);
  tx.audit.push(auditEntry(ctx, next, h.status, to, reason, ts));
  // One decisions.md line per finished handoff (docs/contract.md §4): merged, escalated, withdrawn.
  if (isTerminal(to)) tx.decisions.push({ handoff: next, agent: ctx.agent, timestamp: ts });
  return next;
}

/** Changes fields without a status change (todos, lease renewal): rev and updated_at still move. */
export function applyFieldChange(
  tx: StoreTransaction,
  ctx: ActionContext,
  h: Handoff,
  patch: Partial<Handoff>,
  reason: string | null,
): Handoff {
  const ts = tx.now().toISOString();
  const next: Handoff = { ...h, ...patch, updated_at: ts, rev: (h.rev ?? 0) + 1 };
  tx.replace(next);
  tx.audit.push(auditEntry(ctx, next, h.status, h.status, reason, ts));
  return next;
}
