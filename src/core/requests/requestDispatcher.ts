// The one dispatcher every surface uses (CLI, drop zone, MCP, editor): validate, then run the action inside
// the store transaction with idempotency by request_id, and answer with the envelope of docs/contract.md §8.
import { ACTION_NAMES, ACTIONS, isActionName, paramSchemas } from './actionRegistry';
import type { TimedOut } from './actions/timeOutPasses';
import { reportInputRefusal } from '../domain/completionReport';
import { describeIssues } from '../domain/handoffSchema';
import { ActionError, isActionError } from '../domain/errors';
import { okResponse, refusal, type ResponseEnvelope } from '../domain/responseEnvelope';
import { auditEntry, type ActionContext } from '../store/handoffMutation';
import { newUid } from '../domain/handoffIds';
import { MAX_JSON_DEPTH } from '../domain/boundedJson';
import { nestsDeeperThan, requestHash } from '../domain/stableJson';
import { requestIdSchema } from './requestParams';
import type { HandoffStore } from '../store/handoffStore';
import type { HealthOptions } from './sessions/healthChecks';
import type { StoreTransaction } from '../store/storeTransaction';
import { sweepDueTimeouts, sweepInBatch } from './timeoutSweep';
import type { Replay, SyncOutcome } from '../store/stateAuthority';
import type { RemoteAuthority } from '../store/sync/remoteAuthority';
import { SyncStateFile, type PendingWrite } from '../store/sync/syncStateFile';

export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Deeper requests are refused before hashing or storing them (recursion there would overflow the stack). */
export const MAX_REQUEST_DEPTH = MAX_JSON_DEPTH;

/** The envelope of docs/contract.md §8; a dispatched request always has a request_id (the caller's or a new one). */
export interface RequestResponse extends ResponseEnvelope {
  request_id: string;
}

export interface DispatchContext {
  surface?: string;
  /** The drop-zone file name, echoed as request_file. */
  requestFile?: string;
  /** For actions that run health checks: cancellation, progress, or skipping them (an untrusted workspace). */
  healthOptions?: HealthOptions;
  /** A read fetches the shared state first (the CLI's --fresh; a request says `"fresh": true`). */
  fresh?: boolean;
}

export class RequestDispatcher {
  constructor(
    readonly store: HandoffStore,
    private readonly surface = 'api',
    /** Every read through this dispatcher fetches first (the CLI's --fresh). */
    private readonly freshReads = false,
  ) {
    store.setReplayer((pending) => replayWork(this, pending));
  }

  /** Parses JSON text first (size-capped), so a broken file still gets an answer. */
  async dispatchText(text: string, ctx: DispatchContext = {}): Promise<RequestResponse> {
    if (Buffer.byteLength(text) > MAX_REQUEST_BYTES) {
      return this.refuse(
        ctx,
        null,
        null,
        new ActionError(
          'too_large',
          `The request is over ${MAX_REQUEST_BYTES} bytes; send less (large text belongs in files the handoff names).`,
        ),
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return this.refuse(
        ctx,
        null,
        null,
        new ActionError(
          'invalid_json',
          `The request is not valid JSON (${(e as Error).message}). Write one JSON object such as {"action":"listHandoffs"}.`,
        ),
      );
    }
    return this.dispatch(raw, ctx);
  }

  async dispatch(raw: unknown, ctx: DispatchContext = {}): Promise<RequestResponse> {
    // The first request of a process (a CLI verb, the drop zone, MCP, the editor) starts it: stale derived files are
    // rebuilt first (docs/contract.md §2). Later requests find the promise settled.
    await this.store.repairAtStart();
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      return this.refuse(
        ctx,
        null,
        null,
        new ActionError('invalid_request', 'A request is one JSON object with an "action" field, e.g. {"action":"listHandoffs"}.'),
      );
    }
    const req = raw as Record<string, unknown>;
    const action = typeof req.action === 'string' ? req.action.slice(0, 100) : null;
    // The top-level request_id is read first, so every later refusal (nesting too) is answered under the id
    // its writer waits for (the drop zone names the answer file by it).
    const idCheck = req.request_id === undefined ? null : requestIdSchema.safeParse(req.request_id);
    if (idCheck && !idCheck.success) {
      return this.refuse(
        ctx,
        action,
        null,
        new ActionError('invalid_request', `request_id: ${describeIssues(idCheck.error)}.`, { field: 'request_id' }),
      );
    }
    const givenId = idCheck ? idCheck.data : null;
    if (nestsDeeperThan(req, MAX_REQUEST_DEPTH)) {
      return this.refuse(
        ctx,
        action,
        givenId,
        new ActionError(
          'invalid_request',
          `The request nests objects or arrays more than ${MAX_REQUEST_DEPTH} levels deep (or refers to itself); flatten it. Nothing was changed.`,
        ),
      );
    }
    const requestId = givenId ?? newUid();
    if (action === null) {
      return this.refuse(
        ctx,
        null,
        requestId,
        new ActionError('invalid_request', `The request has no "action" (a string). Actions: ${ACTION_NAMES.join(', ')}.`, {
          field: 'action',
        }),
      );
    }
    if (!isActionName(action)) {
      return this.refuse(
        ctx,
        action,
        requestId,
        new ActionError('unknown_action', `Unknown action ${JSON.stringify(action)}. Actions: ${ACTION_NAMES.join(', ')}.`, {
          actions: ACTION_NAMES,
        }),
      );
    }
    const parsed = paramSchemas[action].safeParse(req);
    if (!parsed.success) {
      // A completion report that does not parse is answered with the protocol's codes (E012 / E021).
      const report = reportInputRefusal(parsed.error);
      if (report) return this.refuse(ctx, action, requestId, report);
      // An unknown key is reported on its parent object; name the key itself so the caller can find it.
      const first = parsed.error.issues[0];
      const where = first ? [...first.path.map(String), ...(first.code === 'unrecognized_keys' ? first.keys.slice(0, 1) : [])] : [];
      const field = where.join('.') || undefined;
      return this.refuse(
        ctx,
        action,
        requestId,
        new ActionError('invalid_request', `${action}: ${describeIssues(parsed.error)}. Nothing was changed.`, { field }),
      );
    }
    const params = parsed.data as Record<string, unknown>;
    // Only a caller-supplied request_id can be repeated, so only then is the request hashed (ledger and history).
    const hash = req.request_id !== undefined ? requestHash(req) : null;
    const actx: ActionContext = {
      action,
      agent: (params.agent as string | undefined) ?? '',
      requestId,
      ...(hash ? { requestHash: hash } : {}),
      surface: ctx.surface ?? this.surface,
    };
    try {
      const spec = ACTIONS[action];
      // Slow I/O (git, health checks) happens here, outside the lock; the action applies its result under the lock.
      const prepared = spec.prepare
        ? await spec.prepare(
            { layout: this.store.layout, config: this.store.config().config, healthOptions: ctx.healthOptions },
            params as never,
          )
        : undefined;
      const sync = this.store.syncAuthority();
      // `fresh` (or --fresh): a read first brings this clone up to the shared state (docs/contract.md §13).
      if (spec.readOnly && sync && (params.fresh === true || ctx.fresh || this.freshReads)) await this.store.syncNow();
      // A read shows timed-out passes already handed back: when one is due, a write sweeps it first (best effort).
      if (spec.readOnly) await this.sweepTimeouts(actx.surface);
      // Reads take no lock and write nothing committed, so they work on a read-only checkout (handoffStore.transactRead).
      const run = (tx: StoreTransaction) => this.apply(tx, action, params, actx, hash, ctx, prepared);
      if (spec.readOnly) {
        const response = await this.store.transactRead(run);
        if (sync && response.ok) response.data = { ...response.data, sync: readSyncInfo(sync) };
        return response;
      }
      let outcome: SyncOutcome | null = null;
      const response = await this.store.transact(run, {
        request: { ...req, request_id: requestId },
        agent: actx.agent,
        onSync: (o) => (outcome = o),
      });
      if (outcome) {
        if (response.ok) response.data = { ...response.data, sync: outcome };
        else response.sync = outcome;
      }
      return response;
    } catch (e) {
      return this.refuse(ctx, action, requestId, e);
    }
  }

  /**
   * A write applied offline, as work to apply again to the shared state (docs/contract.md §13): its parameters are
   * checked again and its prepare step run again now, outside the lock.
   */
  async replayable(pending: PendingWrite): Promise<Replay> {
    const request = pending.request;
    const action = String(request.action);
    const fail = (reason: string, message: string): Replay => ({
      requestId: pending.request_id,
      work: () => ({ ok: false, reason, message }),
    });
    if (!isActionName(action)) return fail('unknown_action', `Unknown action ${JSON.stringify(action)}.`);
    const parsed = paramSchemas[action].safeParse(request);
    if (!parsed.success) return fail('invalid_request', describeIssues(parsed.error));
    const params = parsed.data as Record<string, unknown>;
    const spec = ACTIONS[action];
    const actx: ActionContext = {
      action,
      agent: (params.agent as string | undefined) ?? '',
      requestId: pending.request_id,
      requestHash: requestHash(request),
      surface: 'sync',
      ...(pending.created ? { keep: { uid: pending.created.uid, created_at: pending.created.created_at } } : {}),
    };
    const prepared = spec.prepare
      ? await spec.prepare({ layout: this.store.layout, config: this.store.config().config }, params as never)
      : undefined;
    return {
      requestId: pending.request_id,
      ...(pending.created ? { created: pending.created } : {}),
      work: (tx, moved) => {
        // A provisional id an earlier replayed create was renumbered from names that record, not the id's new holder.
        const named = (params.handoffId ?? params.handoff_id) as string | undefined;
        const renamed = named === undefined ? undefined : moved.get(named);
        const applied = renamed ? { ...params, handoffId: renamed } : params;
        const r = this.apply(tx, action, applied, actx, actx.requestHash!, {}, prepared);
        return { ok: r.ok, reason: r.reason, message: r.message };
      },
    };
  }

  /**
   * Runs inside the lock. Never throws for a refusal: refusals are answers, audited and ledgered like successes.
   * `hash` is null when the caller gave no request_id: such a request cannot be repeated, so it is not ledgered.
   */
  private apply(
    tx: StoreTransaction,
    action: string,
    params: Record<string, unknown>,
    actx: ActionContext,
    hash: string | null,
    ctx: DispatchContext,
    prepared?: unknown,
  ): RequestResponse {
    const spec = ACTIONS[action as keyof typeof ACTIONS];
    if (!spec.readOnly && !spec.sweepsTimeouts && tx.firstTime('passTimeouts')) sweepInBatch(tx, actx.surface);
    const seen = hash === null ? undefined : tx.ledgerEntry(actx.requestId);
    if (seen) {
      // A different request under a used id is refused and not ledgered: the first request's answer stays.
      if (seen.hash !== hash) return this.refusal(ctx, action, actx.requestId, reusedId(actx.requestId));
      if (seen.response) return { ...(seen.response as RequestResponse), ...(ctx.requestFile ? { request_file: ctx.requestFile } : {}) };
    }
    // Without a ledger entry (a fresh clone, another machine, a crash before the ledger append) the store's
    // history may still name the id; it is a replay only if the recorded hash is this request's.
    const marked = hash !== null && !seen && !spec.readOnly ? tx.snapshot.markerFor(actx.requestId) : undefined;
    if (marked && marked.hash !== hash)
      return this.refusal(ctx, action, actx.requestId, reusedId(actx.requestId, marked.hash === undefined));
    let response: RequestResponse;
    if (marked) {
      // Applied before its answer was recorded: answer from the record, do not apply again.
      response = this.success(ctx, action, actx.requestId, { handoff: tx.find(marked.uid), replayed: true });
    } else {
      const step = tx.begin();
      tx.actor = actx.agent || null;
      try {
        response = this.success(ctx, action, actx.requestId, spec.run(tx, actx, params as never, prepared) as Record<string, unknown>);
        if (tx.config.sync && (action === 'startSession' || action === 'status')) {
          tellRevocations(tx, response, this.store.layout.syncStateFile, actx.agent, action === 'startSession');
        }
      } catch (e) {
        step.rollback();
        if (!isActionError(e)) throw e;
        response = this.refusal(ctx, action, actx.requestId, e);
        const target =
          typeof params.handoffId === 'string' ? params.handoffId : typeof params.handoff_id === 'string' ? params.handoff_id : null;
        // An id that moved names another record than the sender meant: the refusal is audited under the id alone.
        const h = target && e.reason !== 'id_moved' ? tx.find(target) : undefined;
        tx.audit.push({
          ...auditEntry(
            actx,
            h ?? (target ? { handoff_id: target, uid: undefined } : null),
            h?.status ?? null,
            null,
            e.reason,
            response.timestamp,
          ),
          refused: true,
        });
      }
    }
    if (hash !== null && !seen)
      tx.ledger.push(
        spec.readOnly ? { request_id: actx.requestId, hash } : { request_id: actx.requestId, hash, response: stripFile(response) },
      );
    if (spec.readOnly && response.ok) {
      tx.audit.push(auditEntry(actx, null, null, null, null, response.timestamp));
    }
    return response;
  }

  /** Hands timed-out passed work back now when any is due (drop zones call it on every rescan); see timeoutSweep.ts. */
  sweepTimeouts(surface = this.surface): Promise<TimedOut | null> {
    return sweepDueTimeouts(this.store, surface);
  }

  private success(ctx: DispatchContext, action: string, requestId: string, data: Record<string, unknown>): RequestResponse {
    return { ...okResponse(action, data, { requestId, requestFile: ctx.requestFile }), request_id: requestId };
  }

  private refusal(ctx: DispatchContext, action: string | null, requestId: string | null, e: ActionError): RequestResponse {
    const id = requestId ?? newUid();
    return { ...refusal(action, e.reason, e.message, { requestId: id, requestFile: ctx.requestFile }, e.details), request_id: id };
  }

  /** A refusal outside the transaction (bad input, lock timeout, broken store): answered and audited, nothing changed. */
  refuse(ctx: DispatchContext, action: string | null, requestId: string | null, e: unknown): RequestResponse {
    const err = isActionError(e)
      ? e
      : new ActionError(
          'internal_error',
          `AgentSync failed: ${(e as Error)?.message ?? String(e)}. Nothing was changed; retry, and report it if it persists.`,
        );
    const response = this.refusal(ctx, action, requestId, err);
    // Only a refused write belongs in the committed audit; a refused read must not dirty the working tree.
    const write = action !== null && isActionName(action) && !ACTIONS[action].readOnly;
    try {
      this.store.auditRefusal(
        {
          ts: response.timestamp,
          action: action ?? '(none)',
          agent: null,
          handoff_id: null,
          uid: null,
          from_status: null,
          to_status: null,
          request_id: response.request_id,
          surface: ctx.surface ?? this.surface,
          reason: err.reason,
          refused: true,
        },
        write,
      );
    } catch {
      // The audit is best effort for input that never reached the store.
    }
    return response;
  }
}

/**
 * Writes the remote revoked (applied offline, then lost to another clone) are told to their agent in its briefing
 * (docs/contract.md §13), under data.sync_revoked; a session start marks them told once the batch is written.
 */
function tellRevocations(tx: StoreTransaction, response: RequestResponse, file: string, agent: string, markTold: boolean): void {
  const state = new SyncStateFile(file);
  const mine = state.read().revoked.filter((r) => !agent || r.agent === agent);
  if (mine.length === 0) return;
  response.data = { ...response.data, sync_revoked: mine };
  if (!markTold) return;
  const told = new Set(mine.map((r) => r.request_id));
  tx.afterCommit.push({
    what: '.agentsync/sync.json',
    run: () => state.update((s) => (s.revoked = s.revoked.filter((r) => !told.has(r.request_id)))),
  });
}

async function replayWork(dispatcher: RequestDispatcher, pending: readonly PendingWrite[]): Promise<Replay[]> {
  const out: Replay[] = [];
  for (const p of pending) out.push(await dispatcher.replayable(p));
  return out;
}

/** What a read says about its view of the shared state: when this clone last heard from the remote, and what waits. */
function readSyncInfo(sync: RemoteAuthority): Record<string, unknown> {
  const s = sync.status();
  return { remote: sync.config.remote, ref: sync.config.ref, commit: s.commit, fetched_at: s.fetched_at, pending: s.pending.length };
}

function reusedId(requestId: string, unhashed = false): ActionError {
  const earlier = unhashed ? 'an earlier request (recorded without a hash, so it cannot be shown to be this one)' : 'a different request';
  return new ActionError(
    'request_id_reused',
    `request_id ${requestId} was already used for ${earlier}. Use a new request_id for a new request; nothing was changed.`,
  );
}

function stripFile(r: RequestResponse): RequestResponse {
  const { request_file: _f, ...rest } = r;
  return rest;
}
