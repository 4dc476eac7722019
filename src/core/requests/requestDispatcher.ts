// The one dispatcher every surface uses (CLI, drop zone, MCP, editor): validate, then run the action inside
// the store transaction with idempotency by request_id, and answer with the envelope of docs/contract.md §8.
import { actionOf, isActionName, type ActionName, type ResultOf } from './catalog';
import type { TimedOut } from './actions/timeOutPasses';
import { ActionError, isActionError } from '../domain/errors';
import { okResponse, refusal, type ResponseEnvelope } from '../domain/responseEnvelope';
import { auditEntry, type ActionContext } from '../store/handoffMutation';
import { newUid } from '../domain/handoffIds';
import { requestHash } from '../domain/stableJson';
import type { HandoffStore } from '../store/handoffStore';
import type { HealthOptions } from './sessions/healthChecks';
import type { StoreTransaction } from '../store/storeTransaction';
import { sweepDueTimeouts, sweepInBatch } from './timeoutSweep';
import type { SyncOutcome } from '../store/stateAuthority';
import type { RemoteAuthority, Replayer } from '../store/sync/remoteAuthority';
import { offlineReplayer, tellRevocations } from './offlineWrites';
import { parseRequestText, takeIn, type Accepted } from './requestIntake';
import { earlierRequest, ledger } from './requestLedger';
import { requestSession, type RequestCaller } from './requestSession';
import { tellWithdrawals } from './withdrawTelling';
import { tellFormatOnce } from './formatTelling';

export { MAX_REQUEST_BYTES, MAX_REQUEST_DEPTH } from './requestIntake';
/** The envelope of docs/contract.md §8; a dispatched request always has a request_id (the caller's or a new one). */
export interface RequestResponse extends ResponseEnvelope {
  request_id: string;
}

/** The answer to a request for action A: `data` holds that action's result (catalog ResultOf), read without casts. */
export type ActionResponse<A extends ActionName> = RequestResponse & { data?: ResultOf<A> };

/** A request naming its action: what a caller writes for a typed answer. */
export type RequestFor<A extends ActionName> = { action: A } & Record<string, unknown>;

export interface DispatchContext {
  surface?: string;
  /** The drop-zone file name, echoed as request_file. */
  requestFile?: string;
  /** For actions that run health checks: cancellation, progress, or skipping them (an untrusted workspace). */
  healthOptions?: HealthOptions;
  /** A read fetches the shared state first (the CLI's --fresh; a request says `"fresh": true`). */
  fresh?: boolean;
  /** Who sends it: worktree, branch, the agent's session id (requestSession.ts); else the dispatcher's own caller. */
  caller?: RequestCaller;
}

export class RequestDispatcher {
  /** How this clone's writes applied offline become work again at the next contact with the remote. */
  readonly replayer: Replayer;

  constructor(
    readonly store: HandoffStore,
    private readonly surface = 'api',
    /** Every read through this dispatcher fetches first (the CLI's --fresh). */
    private readonly freshReads = false,
    /** The caller of every request that names none (the CLI's process: its worktree and environment). */
    private readonly caller?: RequestCaller,
    /** The CLI's --request-id: given to the first write this dispatcher runs that names none (a retry carries it). */
    private givenRequestId?: string,
  ) {
    const env = () => ({ layout: store.layout, config: store.config().config });
    this.replayer = offlineReplayer(env, (tx, action, params, actx, prepared) => {
      const r = this.apply(tx, action, params, actx, actx.requestHash!, {}, prepared);
      return { ok: r.ok, reason: r.reason, message: r.message };
    });
  }

  /**
   * One contact with the remote (`agentsync sync`, a read with `fresh`, the editor's background sync): the writes
   * applied offline are replayed first (offlineWrites.ts). Throws the remote's failure when it did not answer.
   */
  sync(): Promise<SyncOutcome | null> {
    return this.store.syncNow(this.replayer);
  }

  /** Parses JSON text first (size-capped), so a broken file still gets an answer. */
  async dispatchText(text: string, ctx: DispatchContext = {}): Promise<RequestResponse> {
    const parsed = parseRequestText(text);
    if ('error' in parsed) return this.refuse(ctx, null, null, parsed.error);
    return this.dispatch(parsed.value, ctx);
  }

  /** Validates the request (requestIntake.ts), then runs its action: outside the lock for reads, inside it for writes. */
  dispatch<A extends ActionName>(raw: RequestFor<A>, ctx?: DispatchContext): Promise<ActionResponse<A>>;
  dispatch(raw: unknown, ctx?: DispatchContext): Promise<RequestResponse>;
  async dispatch(raw: unknown, ctx: DispatchContext = {}): Promise<RequestResponse> {
    // The first request of a process (a CLI verb, the drop zone, MCP, the editor) starts it: stale derived files are
    // rebuilt first (docs/contract.md §2). Later requests find the promise settled.
    await this.store.repairAtStart(this.replayer);
    const intake = takeIn(this.withGivenId(raw));
    if (!intake.ok) return this.refuse(ctx, intake.action, intake.requestId, intake.error);
    try {
      return await this.run(intake, ctx);
    } catch (e) {
      return this.refuse(ctx, intake.action, intake.requestId, e);
    }
  }

  private withGivenId(raw: unknown): unknown {
    const id = this.givenRequestId;
    if (id === undefined || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
    const req = raw as Record<string, unknown>;
    if (req.request_id !== undefined || typeof req.action !== 'string' || !isActionName(req.action) || actionOf(req.action).readOnly)
      return raw;
    this.givenRequestId = undefined;
    return { ...req, request_id: id };
  }

  private async run(intake: Accepted, ctx: DispatchContext): Promise<RequestResponse> {
    const { action, params, requestId, request: req } = intake;
    const spec = actionOf(action);
    const sync = this.store.syncAuthority();
    // In sync mode every write is hashed and ledgered, also under an id AgentSync gave it: a push whose reply was lost
    // is settled, and retried (--request-id), by that id in the shared ledger (docs/contract.md §13).
    const hash = intake.hash ?? (sync && !spec.readOnly ? requestHash(req) : null);
    const actx: ActionContext = {
      action,
      agent: (params.agent as string | undefined) ?? '',
      requestId,
      ...(hash ? { requestHash: hash } : {}),
      surface: ctx.surface ?? this.surface,
    };
    const session = requestSession(params, ctx.caller ?? this.caller);
    if (session) actx.session = session;
    // Slow I/O (git, health checks) happens here, outside the lock; the action applies its result under the lock.
    const prepared = spec.prepare
      ? await spec.prepare({ layout: this.store.layout, config: this.store.config().config, healthOptions: ctx.healthOptions }, params)
      : undefined;
    // `fresh` (or --fresh): a read first brings this clone up to the shared state (docs/contract.md §13).
    // Without this clone's consent to the sync section (syncConsent.ts) nothing is fetched: the read answers from what was.
    if (spec.readOnly && sync && (params.fresh === true || ctx.fresh || this.freshReads) && sync.consented()) await this.sync();
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
      ...(hash ? { requestHash: hash } : {}),
      agent: actx.agent,
      onSync: (o) => (outcome = o),
      replayer: this.replayer,
    });
    if (outcome) {
      if (response.ok) response.data = { ...response.data, sync: outcome };
      else response.sync = outcome;
    }
    // Once the write is in: a notice of a store version this clone was told of before is left out.
    if (response.ok) response.data = tellFormatOnce(response.data, this.store.layout);
    return response;
  }

  /**
   * Runs inside the lock. Never throws for a refusal: refusals are answers, audited and ledgered like successes.
   * `hash` is null when the caller gave no request_id: such a request cannot be repeated, so it is not ledgered.
   */
  private apply(
    tx: StoreTransaction,
    action: ActionName,
    params: Record<string, unknown>,
    actx: ActionContext,
    hash: string | null,
    ctx: DispatchContext,
    prepared?: unknown,
  ): RequestResponse {
    const spec = actionOf(action);
    if (!spec.readOnly && !spec.sweepsTimeouts && tx.firstTime('passTimeouts')) sweepInBatch(tx, actx.surface);
    const earlier = earlierRequest(tx, actx.requestId, hash, spec.readOnly);
    if (earlier.kind === 'reused') return this.refusal(ctx, action, actx.requestId, earlier.error);
    if (earlier.kind === 'answered')
      return { ...(earlier.response as RequestResponse), ...(ctx.requestFile ? { request_file: ctx.requestFile } : {}) };
    let response: RequestResponse;
    if (earlier.kind === 'applied') {
      // Applied before its answer was recorded: answer from the record, do not apply again.
      response = this.success(ctx, action, actx.requestId, { handoff: tx.find(earlier.uid), replayed: true });
    } else {
      const step = tx.begin();
      tx.actor = actx.agent || null;
      try {
        response = this.success(ctx, action, actx.requestId, spec.run(tx, actx, params, prepared) as Record<string, unknown>);
        if (tx.config.sync && spec.tellsRevoked) {
          response.data = tellRevocations(tx, response.data, this.store.layout.syncStateFile, actx.agent, spec.tellsRevoked);
        }
        response.data = tellWithdrawals(tx.handoffs, response.data, actx, this.store.layout);
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
    if (hash !== null && earlier.kind !== 'ledgered') ledger(tx, actx.requestId, hash, spec.readOnly, response);
    if (spec.readOnly && response.ok) {
      tx.audit.push(auditEntry(actx, null, null, null, null, response.timestamp));
    }
    return response;
  }

  /** Hands timed-out passed work back now when any is due (drop zones call it on every rescan); see timeoutSweep.ts. */
  sweepTimeouts(surface = this.surface): Promise<TimedOut | null> {
    return sweepDueTimeouts(this.store, surface, this.replayer);
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
    const write = action !== null && isActionName(action) && !actionOf(action).readOnly;
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

/** What a read says about its view of the shared state: when this clone last heard from the remote, and what waits. */
function readSyncInfo(sync: RemoteAuthority): Record<string, unknown> {
  const s = sync.status();
  return {
    remote: sync.config.remote,
    ref: sync.config.ref,
    commit: s.commit,
    fetched_at: s.fetched_at,
    pending: s.pending.length,
    ...(sync.consented() ? {} : { consented: false }),
  };
}
