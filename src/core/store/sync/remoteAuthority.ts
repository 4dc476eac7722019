// The git remote as the authority (docs/contract.md §13): a write's first attempt applies the batch to the commit this clone last fetched
// or pushed (no network), commits the result on top of it and pushes it as a compare-and-swap: one conversation with the remote when nobody
// else wrote meanwhile. When the ref moved, the shared ref is fetched and the batch applied again to the state it holds (a claim may now be
// already_claimed). A batch that pushes nothing (a refusal, a briefing) is never answered from a view no fetch of this write confirmed: the
// ref is fetched and the batch decided again. Only after the push succeeded does this clone's handoffs.json change. Offline (`offline:
// "local"`), this clone decides and the writes wait in .agentsync/sync.json until the next contact confirms or revokes them.
import { ActionError, isActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import type { StoreTransaction } from '../storeTransaction';
import type { Handoff } from '../../domain/handoffSchema';
import type { BaseState, BatchWork, Decision, Replay, Replayed, StateAuthority, SyncOutcome } from '../stateAuthority';
import { busyRefusal, RetryBudget, type RetryClock } from './retryBudget';
import { SharedStateRef } from './sharedStateRef';
import { mergedLedger } from './sharedLedger';
import { SyncStateFile, type PendingWrite, type SyncLocalState } from '../syncStateFile';
import { recordRenumbered, settleContact } from './settleContact';
import { sharedBase, type SharedBase } from './sharedBase';
import { joinLocalRecords } from './joinLocalRecords';
import { archiveMoves, changesToPush, commitMessage, followArchive, requestIds } from './sharedWrite';
import { NEWEST_SHARED_FORMAT, type TreeFormat } from './sharedTreeLayout';
import { FormatUpgrade } from './formatUpgrade';
import { decideOffline } from './pendingWrites';
import { afterLostReply, settleFromView, type OutcomeContext, type RetryReason } from './pushOutcome';
import { adoptedCommit, adoptedHere, assertNotRewound } from './rewoundCheck';
import { BatchRecords } from './batchRecords';
import { ConsentGate } from './consentGate';
import type { LocalAuthority } from '../local/localAuthority';

/** Turns writes applied offline back into work, before the lock (their prepare steps may do I/O). */
export type Replayer = (pending: readonly PendingWrite[]) => Promise<Replay[]>;

export class RemoteAuthority implements StateAuthority {
  readonly ref: SharedStateRef;
  readonly state: SyncStateFile;
  private replays: Replay[] = [];
  private attempt = 0;
  /** Set when the last fetch found no remote: the batch is then decided here (see decideOffline). */
  private offline: ActionError | null = null;
  private head: string | null = null;
  /** Whether `head` was fetched during this write (else it is the last known commit, read without the network). */
  private fetched = false;
  private fetchFirst = false;
  /** Why the last attempt must be tried again: its push lost a race (contended), or its view was only the last known one. */
  private retry: RetryReason | null = null;
  private readonly budget: RetryBudget;
  private readonly consent: ConsentGate;
  /** What the shared state held when this attempt's base was read (null: no shared state yet). */
  private loaded: SharedBase | null = null;
  /** This batch's sync.json and this clone's records, read once per batch (under the lock, at its first attempt). */
  private batchState: SyncLocalState | null = null;
  /** This clone's own records and archive, as this batch sees them. */
  private readonly records: BatchRecords;
  /** The request ids a tree format's read looks up in the shared ledger: the batch's, its replays', the unsettled ones. */
  private wanted: string[] = [];
  /** `agentsync sync --upgrade-format`: the next batch writes the state in the newest shared format. */
  readonly upgrade = new FormatUpgrade();
  /** Records only this clone's archive holds, joining the shared archive at its first contact with a tree format. */
  private archiveJoins: Handoff[] = [];
  /** Records of this clone added to (or seeding) the shared state at its first contact: they must be pushed. */
  private joined = 0;
  /** Records renumbered while joining, because the shared state gives their id to another handoff. */
  private joinRenumbered: { from: string; to: string; uid: string }[] = [];

  constructor(
    /** This clone's store: the base when the remote is unreachable, and where a decided state is written. */
    private readonly local: LocalAuthority,
    readonly config: SyncConfig,
    clock?: RetryClock,
  ) {
    this.ref = new SharedStateRef(local.layout.root, config);
    this.state = new SyncStateFile(local.layout.syncStateFile, (m) => local.logger.warn(m));
    this.budget = new RetryBudget(clock);
    this.consent = new ConsentGate(local.layout.root, config);
    this.records = new BatchRecords(local, this.ref, config);
  }

  /**
   * Before the lock: the writes waiting from an offline time, turned into work to apply first by the batch's
   * `replayer` (the requests layer's; none: they wait). `fetchFirst`: the batch wants the remote's newest state even if
   * it pushes nothing (a sync, a fresh read), so its first attempt fetches.
   */
  async prepare(fetchFirst = false, replayer: Replayer | null = null, batch: readonly BatchWork[] = []): Promise<void> {
    this.consent.assert();
    this.ref.endSession();
    this.attempt = 0;
    this.fetchFirst = fetchFirst || this.upgrade.asked;
    this.retry = null;
    this.batchState = null;
    this.records.reset();
    this.budget.start();
    const s = this.state.read();
    this.replays = s.pending.length && replayer ? await replayer(s.pending) : [];
    this.wanted = requestIds(batch, s);
  }

  async base(): Promise<BaseState> {
    this.attempt++;
    // Once per batch, under the lock: sync.json (its later writes go through update()).
    if (this.attempt === 1) this.batchState = this.state.read();
    const last = this.batchState!;
    this.ref.ssh = last.transport !== 'other';
    // The first attempt decides on the commit this clone last fetched or pushed: no network; the push's compare-and-swap
    // tells whether it was still the remote's. Without one, and on every later attempt, the ref is fetched.
    const retry = this.retry;
    this.retry = null;
    let got = null;
    try {
      if (retry?.unreachable) throw retry.unreachable;
      // A last known commit that is not a shared state (a broken one fetched earlier) is no view: fetch instead.
      if (this.attempt === 1 && !this.fetchFirst) got = await this.ref.lastKnownView(this.wanted);
      this.fetched = !got;
      const fetchRef = () => this.ref.fetch(adoptedCommit(last, this.config));
      this.head = got ? got.commit : retry?.prefetched !== undefined ? retry.prefetched : await fetchRef();
      this.offline = null;
    } catch (e) {
      this.noteError(e);
      if (isActionError(e) && e.reason === 'remote_unreachable') {
        // Applied to this clone's state: kept (offline "local"), or answered only if it changes nothing (a briefing,
        // a refusal), since a change the remote did not decide is refused under "refuse" (decideOffline).
        this.offline = e;
        return this.local.base();
      }
      throw e;
    }
    // The server failed to update the ref, and the ref is still where the push expected it: it did not move, so trying
    // again cannot help (a stuck lock on the server, a full disk): named as the server's refusal.
    const stuck = retry?.stuck;
    if (stuck && this.fetched && this.head === stuck.expected) throw this.ref.stuck(stuck.detail);
    // What the ref holds is checked first (not a shared state: store_invalid), then that it holds what this clone adopted.
    if (!got && this.head) got = await this.ref.view(this.head, this.wanted);
    if (this.fetched) assertNotRewound(this.ref, this.config, last, this.head);
    // This clone's records first (its stamp vouches for them): a shared one of the same bytes is not checked again.
    this.loaded = got ? sharedBase(got.view, await this.records.reusable(this.local.file.previous()), this.config, got.commit) : null;
    // No shared state yet: the first contact (a write, or only a sync) seeds it with this clone's store.
    const snapshot = this.loaded?.snapshot ?? (await this.local.base()).snapshot;
    // Records only this clone holds (its first contact with a state another clone seeded, a branch merged in) join it.
    this.joinRenumbered = [];
    if (!this.head) this.joined = snapshot.handoffs.length;
    else {
      const notToJoin = (uids: readonly string[]) => this.records.notToJoin(uids, last, this.head!, this.treeFormat());
      const join = await joinLocalRecords(snapshot, await this.records.localRecords(), this.local, last, notToJoin);
      this.joined = join.joined;
      this.joinRenumbered = join.renumbered;
    }
    // A clone's first contact with a tree format: what only its own archive holds joins the shared archive (by uid, once).
    const first = !last.commit || !adoptedHere(last, this.config);
    const format = this.treeFormat();
    this.archiveJoins = format && first ? await this.records.archiveJoins(snapshot, this.head!, format) : [];
    const shared = this.loaded?.ledger ?? new Map();
    if (this.fetched) settleFromView(this.outcomeContext(), this.head, snapshot, shared);
    const stillPending = new Set(last.pending.map((p) => p.request_id));
    return {
      snapshot,
      ledger: () => mergedLedger(shared, this.local.ledgerIndex()),
      // The archive runs in sync mode only where the shared state has a place for it (a tree format).
      archivable: format ? this.local.dueForArchive(snapshot.handoffs) : [],
      replays: this.replays.filter((r) => stillPending.has(r.requestId)),
    };
  }

  async decide(
    tx: StoreTransaction,
    base: BaseState,
    works: readonly BatchWork[],
    changedBy: readonly boolean[],
    replayed: readonly Replayed[],
  ): Promise<Decision> {
    const { remote, ref } = this.config;
    if (this.offline) return decideOffline(this.local, this.state, this.config, { tx, works, changedBy, why: this.offline });
    let commit = this.head;
    const upgrading = this.upgrade.upgrades(this.loaded?.format);
    const writes = tx.changed || this.joined > 0 || this.archiveJoins.length > 0 || upgrading;
    // A tree format's archive pass and ledger pruning (ledgerPruning.ts): in this write's commit, under its compare-and-swap.
    const archived = writes && !upgrading ? archiveMoves(tx.snapshot, base.archivable) : [];
    if (writes) {
      const { ref, head, loaded, archiveJoins: joins } = this;
      const localArchive = () => this.local.archive.records();
      const write = { ref, head, base: loaded, tx, archived, joins, upgrading, localArchive, now: this.local.now() };
      commit = this.ref.write(this.head, await changesToPush(write), commitMessage(tx, upgrading));
      let pushed;
      try {
        pushed = await this.ref.push(commit, this.head);
      } catch (e) {
        this.noteError(e);
        if (isActionError(e) && e.reason === 'remote_unreachable' && this.config.offline === 'local') {
          // No remote: decided again on this clone's store, as when a fetch finds none (its pending writes are in it, not replayed).
          this.retry = { contended: false, unreachable: e };
          return { kind: 'moved', why: 'the push found no remote; deciding on this clone' };
        }
        throw e;
      }
      if (pushed.kind === 'unknown') {
        const lost = await afterLostReply(this.outcomeContext(), works, changedBy, commit, pushed.error);
        this.retry = lost.retry;
        return { kind: 'moved', why: lost.why };
      }
      if (pushed.kind === 'moved') {
        // Fetch and apply again. Decided on the last known commit, a push that found the ref elsewhere only says this
        // clone's view was old: no pause. A lost race on a fetched state, or a server that failed to update the ref: a pause.
        this.retry = { contended: this.fetched || !pushed.seen };
        if (!pushed.seen) this.retry.stuck = { expected: this.head, detail: pushed.detail };
        return { kind: 'moved', why: pushed.detail };
      }
    } else if (!this.fetched) {
      // Nothing to push (refusals, a briefing, replays already answered), decided on a view no fetch of this write
      // confirmed: a refusal from an old view could be wrong (the handoff may have been released since). Fetch, decide again.
      this.retry = { contended: false };
      return { kind: 'moved', why: 'nothing to push, and the last known state of the remote must be fetched first' };
    }
    // Process tests kill the writer here, between the push and the local write (test/process/remoteSync.test.ts); not user API.
    if (commit !== this.head && process.env.AGENTSYNC_TEST_CRASH_AFTER_PUSH === '1') process.kill(process.pid, 'SIGKILL');
    // The remote decided (or nothing was to be pushed, and the fetched state stands): this clone follows it, its
    // archive first (the records archived now, and those another clone archived that this one held open).
    this.upgrade.settle(upgrading);
    const written = upgrading ? NEWEST_SHARED_FORMAT : this.treeFormat();
    // What other clones archived since this clone's last contact (none wrote since: nothing to look at).
    const last = this.batchState!;
    const since = last.commit && adoptedHere(last, this.config) && last.commit !== this.head ? last.commit : null;
    const elsewhere = commit && written ? await this.records.archivedElsewhere(tx, commit, archived, written, since) : [];
    if (commit && written) await this.records.followContexts(tx, commit, written);
    followArchive(this.local.layout, [...archived, ...elsewhere], (m) => this.local.logger.warn(m));
    this.ref.endSession();
    this.local.adopt(tx);
    const at = this.local.now().toISOString();
    const renumbered = [...this.joinRenumbered, ...replayed.flatMap((r) => (r.renumbered ? [r.renumbered] : []))];
    // An agent holding a provisional id the shared state gave another handoff is refused id_moved until told.
    this.bestEffort(() => recordRenumbered(this.local.layout, tx, renumbered, at));
    const over = this.ref.pushedOver;
    this.bestEffort(() => this.state.update((s) => settleContact(s, { replayed, renumbered, commit, remote, ref, at, over })));
    const outcome: SyncOutcome = {
      confirmed: true,
      remote,
      ref,
      commit,
      attempts: this.attempt,
      ...(renumbered.length ? { renumbered } : {}),
    };
    for (const w of works) w.onSync?.(outcome);
    return { kind: 'decided' };
  }

  async another(): Promise<boolean> {
    const pause = this.budget.next(this.retry?.contended ?? true);
    if (pause === null) return false;
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    return true;
  }

  exhausted(lastWhy: string): Error {
    this.ref.endSession();
    return busyRefusal(this.config, this.budget, this.attempt, lastWhy);
  }

  /** Whether the local user agreed to push to this remote and ref (consentGate.ts). */
  consented(): boolean {
    return this.consent.consented();
  }

  /** Why the last batch was decided here: the remote's failure, or null when the remote answered. */
  offlineError(): ActionError | null {
    return this.offline;
  }

  /** What `agentsync sync --status` tells: no network. */
  status(): SyncLocalState {
    return this.state.read();
  }

  /** The tree format the shared state was read in, or null (format 1, or none yet). */
  private treeFormat(): TreeFormat | null {
    return this.loaded && this.loaded.format !== 1 ? this.loaded.format : null;
  }

  private outcomeContext(): OutcomeContext {
    return {
      config: this.config,
      ref: this.ref,
      state: this.state,
      now: () => this.local.now().toISOString(),
      noteError: (e) => this.noteError(e),
      bestEffort: (fn) => this.bestEffort(fn),
    };
  }

  private noteError(e: unknown): void {
    const err = e as ActionError;
    const at = this.local.now().toISOString();
    this.bestEffort(() => this.state.update((s) => (s.last_error = { reason: err.reason ?? 'internal_error', message: err.message, at })));
  }

  private bestEffort(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.local.logger.warn(`could not update .agentsync/sync.json: ${(e as Error).message}`);
    }
  }
}
