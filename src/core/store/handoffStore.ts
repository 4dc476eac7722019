// HandoffStore: the one way to change handoffs.json. Requests queue up; each batch takes the cross-process
// lock once, re-reads the store if another process changed it, applies every waiting request in order,
// then writes the store, the ledger, the derived files and the audit once (docs/contract.md §12: one lock, one write).
import * as fs from 'node:fs';
import { removeOrphanTempFiles, writeFileAtomic } from '../disk/atomicFile';
import { AuditJournal } from './auditJournal';
import { AuditLog, type AuditEntry } from './auditLog';
import { loadConfig, type LoadedConfig } from '../workspace/configLoader';
import { ActionError, isActionError } from '../domain/errors';
import { FileLock } from '../disk/fileLock';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import { LedgerFile } from './ledgerFile';
import { StoreSnapshot } from './storeSnapshot';
import { StoreTransaction } from './storeTransaction';
import { appendMissingDecisions, derivedFilesOutOfDate, rebuildDerivedFiles, writeDerivedFiles } from './derivedFiles';
import { gitBusy, gitIndexLockPath, gitTracks, waitForGitIdle } from '../git/gitActivity';
import { storageError } from '../disk/storageErrors';
import { isStamped, stampedDigests, stampStore, type StatStamp } from './storeStamp';
import { fileStatKey, fileStatKeyOf } from '../disk/fileStatKey';
import { digestsOfChunks, storeHashOfBytes, storeHashOfChunks, storeHashOfDigests } from './storeHash';
import { splitStoreBytes } from './storeFormat';
import { archiveDue, dueForArchive } from './archive/archivePass';
import type { Handoff, HandoffsFile } from '../domain/handoffSchema';
import { checkStoreInSlices } from './slicedStoreCheck';
import { ArchiveReader } from './archive/archiveReader';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import { readMovedIds } from './movedIds';
import { assertSectionUsable } from '../domain/configSchema';
import type { BaseState, BatchWork, Decision, Replay, Replayed, StateAuthority, SyncOutcome } from './stateAuthority';
import { MAX_PREVIOUS_IDS } from './storeMerge';
import { RemoteAuthority, type AuthorityHost, type Replayer } from './sync/remoteAuthority';
import type { StoreTransaction as Tx } from './storeTransaction';
import { MAX_STORE_BYTES, StoreReader, storeFileRefusal } from './storeReader';
import { storePathIn } from './committedStore';
import {
  assertPlacementUsable,
  committedChanged,
  followRecord,
  headStoreOf,
  joinCommitted,
  mayWriteCommitted,
  takeSeedNotice,
} from './homeRecord';
import { seedHome } from './homeSeed';

/** About 2,000 handoffs: checking a store this size whole takes tens of milliseconds on a slow machine. */
export const LARGE_STORE_BYTES = 2 * 1024 * 1024;

export interface StoreLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface HandoffStoreOptions {
  lockTimeoutMs?: number;
  logger?: StoreLogger;
  now?: () => Date;
  /** Largest number of requests applied under one lock. */
  maxBatch?: number;
  /** Test seams, not API: run at fixed points of a commit so tests can fail or crash there. */
  testHooks?: { afterStoreRename?: () => void };
}

const MAX_BATCH_ATTEMPTS = 20;
/**
 * How long a write waits for this clone's lock in sync mode: each holder talks to the remote (two round trips, more
 * when the ref moved), so several agents of one clone writing at once wait longer than on the local disk alone.
 */
const SYNC_LOCK_WAIT_MS = 120_000;
/** How long a batch waits for git to release .git/index.lock before writing anyway. */
const GIT_WAIT_MS = 10_000;
/** How long a missing store is waited for (git unlinks then re-creates a file it checks out). */
const MISSING_STORE_WAIT_MS = 2_000;

interface Pending extends BatchWork {
  fetchFirst?: boolean;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** What a write may carry beside its work (docs/contract.md §13): the request itself, and who wants its sync outcome. */
export interface TransactOptions {
  request?: Record<string, unknown>;
  agent?: string;
  onSync?: (outcome: SyncOutcome) => void;
  /** Sync mode: fetch the shared ref before the first attempt (a sync, a fresh read), not only when the push needs it. */
  fetchFirst?: boolean;
}

const silent: StoreLogger = { info: () => undefined, warn: () => undefined };

export class HandoffStore {
  private lock: FileLock;
  /** The lock with the wait of this clone's writes: longer in sync mode, where a holder waits on the network. */
  private readonly locks: { local: FileLock; sync: FileLock };
  private readonly ledger: LedgerFile;
  private readonly audit: AuditLog;
  private readonly logger: StoreLogger;
  readonly now: () => Date;
  private readonly maxBatch: number;
  private cached: { key: string; snapshot: StoreSnapshot; hash: string | null } | null = null;
  /** The stat key of the store as the current batch read it, compared right before the rename. */
  private loadedKey = 'missing';
  /** The store as last parsed from disk, until a write uses it to reuse the tracker's rendering (derivedFiles.ts). */
  private freshlyLoaded: { hash: string; handoffs: readonly Handoff[] } | null = null;
  /**
   * A large store read (and, unless stamped, checked in slices) before its first read (prepareFirstRead): the read
   * of the same bytes takes its hash, parts and checked records instead of computing them again.
   */
  private preparedFirstRead: {
    bytes: Buffer;
    hash: string;
    chunks: readonly Buffer[] | null;
    checked: HandoffsFile | null;
  } | null = null;
  private gitIndexLock: string | null | undefined;
  private missingDeadline = 0;
  private readonly journal: AuditJournal;
  private readonly archive: ArchiveReader;
  private configCache: { key: string; loaded: LoadedConfig } | null = null;
  private reportedConfigProblem: string | null = null;
  private queue: Pending[] = [];
  private preparedDir = false;
  /** repairAtStart found the derived files out of date: the next batch checks again under the lock and rebuilds them. */
  private startCheckWanted = false;
  private startRepair: Promise<void> | null = null;
  private flushing = false;
  private listeners: ((snapshot: StoreSnapshot) => void)[] = [];
  private remote: { key: string; authority: RemoteAuthority } | null = null;
  private replayer: Replayer | null = null;
  /** Whether this instance has said the home's seeding notice (homeRecord.ts), if there was one. */
  private noticesTaken = false;
  /** This clone's handoffs.json as the authority: a batch reads it under the lock and writes it back (docs/contract.md §12). */
  private readonly local: StateAuthority = {
    another: (attempt) => Promise.resolve(attempt < MAX_BATCH_ATTEMPTS),
    base: () => this.localBase(),
    decide: (tx, base) => Promise.resolve(this.localDecide(tx, base)),
    exhausted: (why) => new StoreMoved(why).refusal(),
  };

  /** The state as this clone holds it, for readers outside the commit pipeline (storeReader.ts). */
  readonly reader: StoreReader;

  constructor(
    readonly layout: WorkspaceLayout,
    private readonly options: HandoffStoreOptions = {},
  ) {
    this.reader = new StoreReader(layout);
    this.locks = {
      local: new FileLock(layout.lockFile, options.lockTimeoutMs ?? 10_000),
      sync: new FileLock(layout.lockFile, options.lockTimeoutMs ?? SYNC_LOCK_WAIT_MS),
    };
    this.lock = this.locks.local;
    this.ledger = new LedgerFile(layout.ledgerFile);
    this.audit = new AuditLog(layout);
    this.journal = new AuditJournal(layout.auditJournalFile, this.audit);
    this.logger = options.logger ?? silent;
    this.archive = new ArchiveReader(layout, (m) => this.logger.warn(m));
    this.now = options.now ?? (() => new Date());
    this.maxBatch = options.maxBatch ?? 256;
  }

  /** Called after every batch that changed the store (the editor refreshes its views from this). */
  onDidChange(listener: (snapshot: StoreSnapshot) => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  /** The configuration, re-read when .agentsync.json changes; a broken file is reported once. */
  config(): LoadedConfig {
    const key = statKey(this.layout.configFile);
    if (!this.configCache || this.configCache.key !== key) {
      this.configCache = { key, loaded: loadConfig(this.layout.configFile) };
      const problem = this.configCache.loaded.problem;
      if (problem && problem !== this.reportedConfigProblem) this.logger.warn(problem);
      this.reportedConfigProblem = problem;
    }
    return this.configCache.loaded;
  }

  /** Drops audit month files older than `audit.retention_days` (none by default); returns the names removed. */
  pruneAudit(now = this.now()): string[] {
    return this.audit.prune(this.config().config.audit.retention_days, now);
  }

  /** The audit lines about one handoff, oldest first (the editor's history document). */
  auditFor(h: { uid?: string; handoff_id: string }, limit?: number): AuditEntry[] {
    return this.audit.entriesFor(h, limit);
  }

  /** True when the next read would be the first, of a store large enough that checking it whole holds the thread. */
  firstReadIsLarge(): boolean {
    if (this.cached) return false;
    const st = fs.lstatSync(this.layout.handoffsFile, { throwIfNoEntry: false });
    return !!st && st.isFile() && st.size >= LARGE_STORE_BYTES && st.size <= MAX_STORE_BYTES;
  }

  /**
   * Checks the store a slice at a time (slicedStoreCheck.ts), pausing with `pause` between slices, so that the next
   * read of exactly those bytes only indexes them. A stamped store needs no check; a store that fails, or changes
   * in between, is read and checked whole by that next read, which says what is wrong.
   */
  async prepareFirstRead(pause: () => Promise<void>): Promise<void> {
    await pause(); // the caller's turn ends first: it shows that the store is being checked
    const bytes = fs.readFileSync(this.layout.handoffsFile);
    const { hash, chunks } = storeHashOfBytes(bytes);
    let checked: HandoffsFile | null = null;
    if (!isStamped(this.layout.validatedStampFile, hash)) {
      await pause();
      checked = await checkStoreInSlices(bytes.toString('utf8'), pause);
    }
    this.preparedFirstRead = { bytes, hash, chunks, checked };
  }

  /** An archived handoff by id or uid (read-only; the editor's history document of a handoff no longer open). */
  findArchived(ref: string): Handoff | undefined {
    return this.archive.find(ref);
  }

  /**
   * Audits a request refused before it reached the store (bad JSON, schema violation, lock timeout): a refused write
   * in the committed audit, anything else (a refused read, input naming no action) in the runtime read log
   * (docs/contract.md §9). Without a store on this checkout (a branch from before AgentSync, a deleted file) nothing
   * is written at all: a file created there would be untracked, and `git checkout` back would refuse to overwrite it.
   */
  auditRefusal(entry: import('./auditLog').AuditEntry, write: boolean): void {
    if (!isRegularFile(this.layout.handoffsFile) || !mayWriteCommitted(this.layout)) return;
    // A refusal because .agentsync is redirected (store_unsafe) must not be logged through that redirection either.
    try {
      assertSafeDirectory(this.layout.root, this.layout.dataDir);
    } catch {
      return;
    }
    if (write) this.audit.append([entry]);
    else this.audit.appendReads([entry]);
  }

  /** Reads the store without the lock (the file is only ever replaced whole, so a read is never torn). */
  read(): StoreSnapshot {
    return this.load();
  }

  /**
   * How writes applied offline are turned back into work on the next sync (the dispatcher registers itself: the
   * store cannot run requests).
   */
  setReplayer(replayer: Replayer): void {
    this.replayer = replayer;
  }

  /** The remote authority when `sync` is set in .agentsync.json, else null (this clone decides). */
  syncAuthority(): RemoteAuthority | null {
    const sync = this.config().config.sync;
    if (!sync) return null;
    const key = JSON.stringify(sync);
    if (this.remote?.key !== key) this.remote = { key, authority: new RemoteAuthority(this.authorityHost(), sync, this.replayer) };
    return this.remote.authority;
  }

  /**
   * One contact with the remote and nothing else (`agentsync sync`, a read with `fresh`): fetch, replay what is pending,
   * push what that changed, bring handoffs.json up to the shared state. Throws the remote's failure (remote_unreachable, …)
   * when it did not answer, in either offline mode.
   */
  async syncNow(): Promise<SyncOutcome | null> {
    let outcome: SyncOutcome | null = null;
    await this.transact(() => undefined, { onSync: (o) => (outcome = o), fetchFirst: true });
    // Decided here because the remote did not answer: for a sync that is the failure itself.
    const failure = (outcome as SyncOutcome | null)?.confirmed === false ? this.remote?.authority.offlineError() : null;
    if (failure) throw failure;
    return outcome;
  }

  /** Runs `work` inside the lock, batched with whatever else is waiting. Its return value resolves the promise. */
  transact<T>(work: (tx: StoreTransaction) => T, options: TransactOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, ...options, resolve: resolve as (v: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.runBatch(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    let authority: StateAuthority;
    try {
      // A broken `sync` section fails closed: deciding alone would let two clones claim one handoff.
      assertSectionUsable(this.config().config, 'sync');
      authority = this.syncAuthority() ?? this.local;
      this.lock = authority === this.local ? this.locks.local : this.locks.sync;
      if (authority instanceof RemoteAuthority) await authority.prepare(batch.some((p) => p.fetchFirst));
      assertPlacementUsable(this.layout, true);
      // The lock lives in the record's folder (the clone's home, or .agentsync/ outside git); a request in a folder not
      // yet initialized creates it. Every batch: a symlinked .agentsync/ or audit/ (e.g. checked out from git) is
      // refused before anything is written.
      ensureSafeDirectory(this.layout.recordBase, this.layout.recordDir);
      assertSafeDirectory(this.layout.root, this.layout.dataDir);
      assertSafeDirectory(this.layout.committedRoot, this.layout.auditDir);
      await this.lock.acquire();
    } catch (e) {
      for (const p of batch) p.reject(storageError(e, this.layout.lockFile));
      return;
    }
    let results: { p: Pending; ok: boolean; value: unknown }[] = [];
    try {
      this.missingDeadline = Date.now() + MISSING_STORE_WAIT_MS;
      for (let attempt = 1; ; attempt++) {
        const base = await authority.base();
        const tx = new StoreTransaction(base.snapshot, this.config().config, base.ledger, this.now, this.archive, () =>
          readMovedIds(this.layout),
        );
        // Writes applied offline go first, in their order: the remote confirms or revokes each (docs/contract.md §13).
        const moved = new Map<string, string>();
        const replayed = base.replays.map((replay) => applyReplay(tx, replay, moved));
        results = [];
        const changedBy: boolean[] = [];
        for (const p of batch) {
          const step = tx.begin();
          const before = tx.changes();
          try {
            results.push({ p, ok: true, value: p.work(tx) });
          } catch (e) {
            step.rollback();
            results.push({ p, ok: false, value: e });
          }
          changedBy.push(tx.changes() > before);
        }
        const decision = await authority.decide(tx, base, batch, changedBy, replayed);
        if (decision.kind === 'decided') break;
        // The state moved after we read it (git or a hand replaced the file; another clone pushed), or the remote's state
        // must be fetched before a batch that pushes nothing is answered: apply the batch again.
        if (!(await authority.another(attempt))) throw authority.exhausted(decision.why);
        this.cached = null;
        this.logger.info(`applying the batch again (${decision.why})`);
      }
    } catch (e) {
      this.cached = null; // whatever is in memory may not be on disk: re-read next time
      this.lock.release();
      for (const p of batch) p.reject(e);
      return;
    }
    this.lock.release();
    for (const r of results) (r.ok ? r.p.resolve : r.p.reject)(r.value);
  }

  /** The local authority's base: this clone's store after crash repair, waiting out git's unlink-then-write gap. */
  private async localBase(): Promise<BaseState> {
    for (;;) {
      await this.waitForSteadyStore();
      try {
        if (!this.preparedDir) this.coldStart();
        this.recoverJournal();
        if (this.startCheckWanted) this.rebuildIfStale();
        this.joinFromMainWorktree();
        const snapshot = this.load();
        const archivable = dueForArchive(snapshot.handoffs, this.config().config, this.now());
        return { snapshot, ledger: () => this.ledger.index(), archivable, replays: [] };
      } catch (e) {
        // git unlinked the store between our wait and our read: wait for its new file, within the same bound.
        if (isActionError(e) && e.reason === 'store_missing' && Date.now() < this.missingDeadline) continue;
        throw e;
      }
    }
  }

  /** Records a `git pull` brought into the main worktree's committed store join the clone's home (homeRecord.ts). */
  private joinFromMainWorktree(): void {
    this.bestEffort("the main worktree's records", () => {
      const joined = joinCommitted(
        this.layout,
        (uid) => {
          const archived = this.archive.find(uid);
          return archived ? (archived.rev ?? 0) : undefined;
        },
        this.now(),
      );
      if (joined.length) this.logger.info(`joined ${joined.length} record(s) from the main worktree's handoffs.json: ${joined.join(', ')}`);
    });
  }

  private localDecide(tx: StoreTransaction, base: BaseState): Decision {
    try {
      this.commit(tx, base.archivable);
      return { kind: 'decided' };
    } catch (e) {
      if (e instanceof StoreMoved) return { kind: 'moved', why: e.message };
      throw e;
    }
  }

  private authorityHost(): AuthorityHost {
    return {
      layout: this.layout,
      now: () => this.now(),
      localBase: () => this.localBase(),
      localLedger: () => this.ledger.index(),
      previousSnapshot: () => (this.cached && this.cached.key !== 'missing' ? this.cached.snapshot : undefined),
      adopt: (tx) => this.commit(tx, [], true),
      warn: (m) => this.logger.warn(m),
    };
  }

  /**
   * Read-only work (list, show, status): no lock and no write to anything committed, so reads work on a read-only
   * checkout and never dirty the working tree. Audit lines go to the runtime reads log, best effort.
   */
  transactRead<T>(work: (tx: StoreTransaction) => T): Promise<T> {
    // Records a pull brought into the main worktree's committed store join the clone's home first (under the lock,
    // writing only the home, never a working tree), so a read after `git pull` sees them (homeRecord.ts).
    if (committedChanged(this.layout))
      return this.transact(() => undefined).then(
        () => this.readNow(work),
        () => this.readNow(work),
      );
    return this.readNow(work);
  }

  private readNow<T>(work: (tx: StoreTransaction) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        try {
          const tx = new StoreTransaction(
            this.load(),
            this.config().config,
            () => this.ledger.index(),
            this.now,
            this.archive,
            () => readMovedIds(this.layout),
          );
          const step = tx.begin();
          const value = work(tx);
          if (tx.changed) {
            step.rollback();
            const message = 'A read-only action tried to change the store; nothing was changed. Report this as a bug.';
            throw new ActionError('internal_error', message);
          }
          // A read where there is no store (a branch from before AgentSync) writes nothing at all.
          if (isRegularFile(this.layout.handoffsFile)) {
            this.bestEffort('the reads log', () => this.audit.appendReads(tx.audit));
            this.bestEffort('the request ledger', () => this.ledger.append(tx.ledger));
          }
          resolve(value);
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  /** Waits (bounded) while git is replacing files, and through git's unlink-then-write gap of a missing store. */
  private async waitForSteadyStore(): Promise<void> {
    this.gitIndexLock ??= gitIndexLockPath(this.layout.committedRoot);
    if (!(await waitForGitIdle(this.gitIndexLock, GIT_WAIT_MS))) {
      this.logger.warn('git has held .git/index.lock for a while; writing anyway (a stale index.lock? remove it only if no git runs)');
    }
    const until = Date.now() + MISSING_STORE_WAIT_MS;
    while (!fs.existsSync(this.layout.handoffsFile) && this.storeExpected() && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** First batch of this instance: remove dead writers' temp files, repair what a crash cut off. */
  private coldStart(): void {
    this.preparedDir = true;
    const removed = removeOrphanTempFiles(this.layout.recordDir) + removeOrphanTempFiles(this.layout.committedRoot);
    if (removed) this.logger.info(`removed ${removed} temp file(s) left by killed writers`);
    this.bestEffort('decisions.md', () => {
      const added = appendMissingDecisions(this.layout, this.load().handoffs);
      if (added) this.logger.info(`decisions.md: added ${added} line(s) a crash had cut off`);
    });
    this.rebuildIfStale();
  }

  /** A crashed writer's audit lines go in now, once; then derived files it never rebuilt are rebuilt. */
  private recoverJournal(): void {
    if (!fs.existsSync(this.layout.auditJournalFile)) return;
    this.load();
    let added = 0;
    this.bestEffort('the audit log from its journal', () => (added = this.journal.recover(this.cachedHash())));
    if (added) this.logger.info(`audit: added ${added} line(s) a crash or a busy git had put off`);
    this.rebuildIfStale(true);
  }

  private rebuildIfStale(afterCrash = false): void {
    this.startCheckWanted = false;
    this.bestEffort('the derived files', () => {
      const snapshot = this.load();
      const hash = this.cachedHash();
      const why = hash && (afterCrash ? 'a writer was cut off' : derivedFilesOutOfDate(this.layout, hash));
      if (!hash || !why) return;
      const problems = rebuildDerivedFiles(this.layout, snapshot.handoffs, { storeHash: hash, beforeRename: () => this.assertGitIdle() });
      for (const problem of problems) this.logger.warn(problem);
      if (problems.length === 0) this.logger.info(`rebuilt AgentTracker.md and state.json from handoffs.json (${why})`);
    });
  }

  /**
   * At start (every request surface's first request, `watch`, the editor opening a folder): derived files a crash,
   * git or a hand left out of date are rebuilt now, under the lock, not on the next write. Checked without the lock
   * first (a read of state.json and the tracker), so a current workspace pays no lock; a store that cannot be read,
   * or a folder this user cannot write (a read-only checkout), is left to the request to report.
   */
  repairAtStart(): Promise<void> {
    this.startRepair ??= this.repairIfOutOfDate();
    return this.startRepair;
  }

  private async repairIfOutOfDate(): Promise<void> {
    try {
      this.load();
      const hash = this.cachedHash();
      if (!hash || !derivedFilesOutOfDate(this.layout, hash)) return;
      assertPlacementUsable(this.layout, true);
      fs.accessSync(this.layout.recordDir, fs.constants.W_OK);
    } catch {
      return;
    }
    this.startCheckWanted = true;
    await this.transact(() => undefined).catch((e: Error) => this.logger.warn(`could not rebuild the derived files: ${e.message}`));
  }

  /**
   * Writes the store (the truth) first; once it is renamed into place the batch has happened, so nothing after
   * it may turn the answer into a refusal: the stamp, ledger, derived files and audit are written best effort, a
   * failure logged and repaired by the next batch (the journal holds the audit lines, state.json's storeHash
   * says whether the derived files are current).
   */
  private commit(tx: StoreTransaction, archivable: readonly Handoff[], decidedElsewhere = false): void {
    // Fencing: a process whose lock was taken over (its lease expired while it was frozen) writes nothing.
    this.lock.assertHeld();
    // Decided by the remote: the file follows the shared state whenever their bytes differ, even for a batch that
    // changed nothing (another clone's writes arrive this way), and whatever replaced the file meanwhile is overwritten.
    const follows = decidedElsewhere && (tx.changed || this.localHash() !== storeHashOfChunks(tx.snapshot.serializeChunks()));
    if (!tx.changed && !follows) {
      // Nothing to protect: refused requests only; their answers and audit lines are written as before.
      // Replays and refusals: the answers are already true; a ledger that cannot be written only costs a later
      // replay from the store's request markers.
      this.bestEffort('the request ledger', () => this.ledger.append(tx.ledger));
      // No store on this checkout (a branch from before AgentSync): a refusal writes no committed file, or that
      // untracked file would make `git checkout` back fail (docs/contract.md §9).
      if (isRegularFile(this.layout.handoffsFile)) this.appendAudit(tx.audit, () => this.journal.keep(tx.audit));
      this.runAfterCommit(tx);
      return;
    }
    ensureSafeDirectory(this.layout.recordBase, this.layout.recordDir);
    // Only a batch that writes the store anyway archives: a refusal changes nothing, not even the archive.
    archiveDue(this.layout, tx.snapshot, archivable, this.logger);
    const chunks = tx.snapshot.serializeChunks();
    const hash = storeHashOfChunks(chunks);
    if (tx.audit.length) this.journal.write(hash, tx.audit);
    const loadedKey = this.loadedKey;
    let written: fs.BigIntStats | null = null;
    try {
      writeFileAtomic(this.layout.handoffsFile, chunks, {
        written: (st) => (written = st),
        beforeRename: () => {
          this.lock.assertHeld();
          if (decidedElsewhere) return;
          const now = statKey(this.layout.handoffsFile);
          if (now !== loadedKey) throw new StoreMoved(`it was ${loadedKey}, now ${now}`);
          if (gitBusy(this.gitIndexLock ?? null)) throw new StoreMoved('git is replacing files');
        },
      });
    } catch (e) {
      this.bestEffort('the audit journal', () => this.journal.clear());
      throw e;
    }
    // The rename happened: from here on the answer is the truth.
    this.bestEffort('the step after the store write', () => this.options.testHooks?.afterStoreRename?.());
    // Process tests of crash recovery kill the writer here (test/process/crashSafety.test.ts); not user API.
    if (process.env.AGENTSYNC_TEST_CRASH_AFTER_STORE_RENAME === '1') process.kill(process.pid, 'SIGKILL');
    const key = statKey(this.layout.handoffsFile);
    this.cached = { key, snapshot: tx.snapshot, hash };
    this.loadedKey = key;
    const stat = writtenStat(this.layout.handoffsFile, written, chunks);
    this.bestEffort('the validated-store stamp', () => stampStore(this.layout.validatedStampFile, hash, stat));
    this.bestEffort("the main worktree's handoffs.json", () => followRecord(this.layout, chunks));
    this.bestEffort('the request ledger', () => this.ledger.append(tx.ledger));
    const beforeRename = () => this.assertGitIdle();
    const loaded = this.freshlyLoaded ?? undefined;
    this.freshlyLoaded = null;
    for (const problem of writeDerivedFiles(this.layout, tx, { storeHash: hash, beforeRename, loaded })) {
      this.logger.warn(`${problem} (rebuilt on the next write)`);
    }
    // On failure the journal written before the rename keeps the lines; the next batch appends them.
    this.appendAudit(
      tx.audit,
      () => undefined,
      () => this.journal.clear(),
    );
    this.runAfterCommit(tx);
    for (const l of this.listeners) {
      this.bestEffort('a change listener', () => l(tx.snapshot));
    }
  }

  /** Writes that must follow the store (a session's tracker lines and state.json), best effort like the derived files. */
  private runAfterCommit(tx: StoreTransaction): void {
    for (const w of tx.afterCommit) this.bestEffort(w.what, () => w.run());
  }

  private appendAudit(entries: readonly AuditEntry[], onFailure: () => void, onSuccess: () => void = () => undefined): void {
    if (entries.length === 0) return;
    try {
      this.audit.append(entries);
      onSuccess();
    } catch (e) {
      this.logger.warn(`could not append to the audit log now (${(e as Error).message}); the next write appends it`);
      this.bestEffort('the audit journal', onFailure);
    }
  }

  private assertGitIdle(): void {
    if (gitBusy(this.gitIndexLock ?? null)) {
      throw new Error('git is replacing files (.git/index.lock exists); skipped, rebuilt on the next write');
    }
  }

  private bestEffort(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.logger.warn(`could not update ${what}: ${(e as Error).message}`);
    }
  }

  /**
   * True when this workspace had a store (this machine wrote one, or git tracks it): a missing one is then git's
   * unlink-then-write gap or a deletion, never an empty store (writing one would replace every record on the next checkout).
   */
  private storeExpected(): boolean {
    return (
      isRegularFile(this.layout.validatedStampFile) ||
      isRegularFile(this.layout.stateFile) ||
      gitTracks(this.layout.committedRoot, storePathIn(''))
    );
  }

  /** The hash of this clone's handoffs.json as it is now on disk, or null when there is none (or it cannot be read). */
  private localHash(): string | null {
    try {
      this.load();
      return this.cachedHash();
    } catch {
      return null;
    }
  }

  private cachedHash(): string | null {
    if (!this.cached || this.cached.key === 'missing') return null;
    this.cached.hash ??= storeHashOfBytes(fs.readFileSync(this.layout.handoffsFile)).hash;
    return this.cached.hash;
  }

  private load(): StoreSnapshot {
    assertPlacementUsable(this.layout, false);
    // Even a read writes in the record's folder (the reads log, the validated-store stamp): a symlinked one, or a
    // symlinked .agentsync/, is refused here.
    assertSafeDirectory(this.layout.root, this.layout.dataDir);
    assertSafeDirectory(this.layout.recordBase, this.layout.recordDir);
    if (!this.noticesTaken) {
      this.noticesTaken = true;
      for (const line of takeSeedNotice(this.layout)) this.logger.warn(line);
    }
    let st: fs.Stats;
    try {
      st = fs.lstatSync(this.layout.handoffsFile);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // First use of this clone's home: seeded from the main worktree's committed store, and said once.
      if (seedHome(this.layout, headStoreOf(this.layout))) {
        this.noticesTaken = false;
        return this.load();
      }
      if (this.storeExpected()) {
        throw new ActionError(
          'store_missing',
          '.agentsync/handoffs.json is missing, but this workspace had a store. Restore it ' +
            '(git checkout -- .agentsync/handoffs.json) and retry, or run `agentsync init` to start an empty one; nothing was changed.',
        );
      }
      this.loadedKey = 'missing';
      if (!this.cached || this.cached.key !== 'missing') this.cached = { key: 'missing', snapshot: StoreSnapshot.empty(), hash: null };
      return this.cached.snapshot;
    }
    const refusal = storeFileRefusal(st);
    if (refusal) throw refusal;
    const key = keyOf(st);
    this.loadedKey = key;
    if (this.cached?.key === key) return this.cached.snapshot;
    const statBefore = fileStatKeyOf(this.layout.handoffsFile);
    const bytes = fs.readFileSync(this.layout.handoffsFile);
    // The stat of exactly these bytes: the file was not replaced or written to while it was read.
    const stat = statBefore !== null && fileStatKeyOf(this.layout.handoffsFile) === statBefore ? statBefore : null;
    // Read ahead of time (prepareFirstRead) and unchanged since: its hash, parts and check stand.
    const prepared = this.preparedFirstRead?.bytes.equals(bytes) ? this.preparedFirstRead : null;
    this.preparedFirstRead = null;
    const parts = prepared ? prepared.chunks : splitStoreBytes(bytes);
    const byStat = prepared ? null : this.stampedByStat(stat, parts);
    const { hash, chunks } = prepared ?? byStat ?? (parts ? { hash: storeHashOfChunks(parts), chunks: parts } : storeHashOfBytes(bytes));
    const previous = this.cached?.key === 'missing' ? undefined : this.cached?.snapshot;
    // The same bytes under a new stat (touched, or written again unchanged): the snapshot in memory is still the file.
    if (previous && this.cached?.hash === hash) {
      this.cached = { key, snapshot: previous, hash };
      return previous;
    }
    const checked = prepared?.checked ?? null;
    const trusted = !checked && (!!byStat || isStamped(this.layout.validatedStampFile, hash));
    const snapshot = checked ? StoreSnapshot.fromChecked(checked, chunks) : StoreSnapshot.parse(bytes, trusted, { previous, chunks });
    // Checked now, or vouched for by the hash alone: the stamp records this stat, so the next process hashes nothing.
    const digests = stat && chunks ? digestsOfChunks(chunks) : null;
    if (!byStat && (!trusted || digests)) stampQuietly(this.layout.validatedStampFile, hash, digests && { stat: stat!, digests });
    this.cached = { key, snapshot, hash };
    this.freshlyLoaded = { hash, handoffs: snapshot.handoffs.slice() };
    return snapshot;
  }

  /**
   * The store's hash and parts without hashing them, when the stamp records exactly this stat with its parts' digests
   * (storeStamp.ts); null otherwise (then the bytes are hashed, and the stamp checked against that hash).
   */
  private stampedByStat(stat: string | null, chunks: readonly Buffer[] | null): { hash: string; chunks: readonly Buffer[] } | null {
    if (!stat || !chunks) return null;
    const digests = stampedDigests(this.layout.validatedStampFile, stat, chunks.length);
    return digests ? { hash: storeHashOfDigests(chunks, digests), chunks } : null;
  }
}

/**
 * The store's stat and parts' digests for the stamp, once the file just renamed into place is known to be the one
 * written (`written`: the temp file's stat before the rename, which changes only its change time); null when the
 * file at the path is another (replaced meanwhile) or its parts were not hashed as such.
 */
function writtenStat(file: string, written: fs.BigIntStats | null, chunks: readonly Buffer[]): StatStamp | null {
  const digests = digestsOfChunks(chunks);
  if (!written || !digests) return null;
  let now: fs.BigIntStats;
  try {
    now = fs.lstatSync(file, { bigint: true });
  } catch {
    return null;
  }
  const same = now.dev === written.dev && now.ino === written.ino && now.size === written.size && now.mtimeNs === written.mtimeNs;
  return same ? { stat: fileStatKey(now), digests } : null;
}

/** A write applied offline, applied again to the shared state; a refusal now means the remote revoked it. */
function applyReplay(tx: Tx, replay: Replay, moved: Map<string, string>): Replayed {
  const step = tx.begin();
  try {
    const answer = replay.work(tx, moved);
    const made = answer.ok && replay.created ? tx.find(replay.created.uid) : undefined;
    if (!made || made.handoff_id === replay.created!.handoff_id) return { replay, ...answer };
    // The shared state gave this create's provisional id to another handoff: the record keeps the old id in
    // previous_ids (an agent naming it is refused id_moved, movedIds.ts), and later replays naming it act on this one.
    const from = replay.created!.handoff_id;
    moved.set(from, made.handoff_id);
    tx.replace({ ...made, previous_ids: [...(made.previous_ids ?? []), from].slice(-MAX_PREVIOUS_IDS) });
    return { replay, ...answer, renumbered: { from, to: made.handoff_id, uid: made.uid! } };
  } catch (e) {
    step.rollback();
    return { replay, ok: false, reason: isActionError(e) ? e.reason : 'internal_error', message: (e as Error).message };
  }
}

/** The store changed between our read and our rename (git checkout, a hand edit): the batch is applied again. */
class StoreMoved extends Error {
  refusal(): ActionError {
    const message = `.agentsync/handoffs.json kept changing while AgentSync wrote it (${this.message}); nothing was changed. Retry when git is done.`;
    return new ActionError('store_busy', message);
  }
}

/**
 * A store just checked record by record is stamped, so the next process (a window reloaded, an agent's next CLI call)
 * skips the check until the bytes change. Reads take no lock: a stamp that loses a race with a writer's names bytes
 * no longer there and matches nothing, the safe side. Silent, because a read-only checkout cannot keep one.
 */
function stampQuietly(file: string, hash: string, stat: StatStamp | null): void {
  try {
    stampStore(file, hash, stat);
  } catch {
    // read-only folder or no key: the next read checks again
  }
}

function isRegularFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function keyOf(st: fs.Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

function statKey(file: string): string {
  try {
    return keyOf(fs.lstatSync(file));
  } catch {
    return 'missing';
  }
}
