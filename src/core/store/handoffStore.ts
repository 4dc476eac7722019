// HandoffStore: the one way to change handoffs.json. Requests queue up; each batch takes the cross-process lock once,
// is applied to the state of the authority that decides it (this clone's store, local/localAuthority.ts, or the git
// remote composed over it, sync/remoteAuthority.ts), then the store, the ledger, the derived files and the audit are
// written once (docs/contract.md §12: one lock, one write). The chain runs one way: this facade → the remote authority
// → the local authority → disk.
import { committedChanged } from './homeRecord';
import type { HandoffsFile } from '../domain/handoffSchema';
import { ActionError } from '../domain/errors';
import { assertSectionUsable } from '../domain/configSchema';
import type { Handoff } from '../domain/handoffSchema';
import { storageError } from '../disk/storageErrors';
import type { LoadedConfig } from '../workspace/configLoader';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import type { AuditEntry } from './auditLog';
import { applyBatch, type WorkResult } from './batchAttempts';
import { ConfigCache } from './configCache';
import { LocalAuthority } from './local/localAuthority';
import type { CommitTestHooks } from './local/storeCommit';
import { readMovedIds } from './movedIds';
import type { BaseState, BatchWork, StateAuthority, SyncOutcome } from './stateAuthority';
import { silentLogger, type StoreLogger } from './storeLogger';
import { StoreReader } from './storeReader';
import type { StoreSnapshot } from './storeSnapshot';
import { StoreTransaction } from './storeTransaction';
import { RemoteAuthority, type Replayer } from './sync/remoteAuthority';
import { LeaseWatch } from './sync/leaseWatch';

export type { StoreLogger } from './storeLogger';
export { LARGE_STORE_BYTES } from './local/storeFile';

export interface HandoffStoreOptions {
  lockTimeoutMs?: number;
  logger?: StoreLogger;
  now?: () => Date;
  /** Largest number of requests applied under one lock. */
  maxBatch?: number;
  /** Test seams, not API: run at fixed points of a commit so tests can fail or crash there. */
  testHooks?: CommitTestHooks;
  /** More lines for the home's seeding notice, given the seeded record (the CLI names linked worktrees' diverging copies). */
  seedNoticeExtras?: (record: HandoffsFile) => string[];
}

interface Pending extends BatchWork {
  fetchFirst?: boolean;
  readOnly?: boolean;
  replayer?: Replayer;
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
  /**
   * Sync mode: how the writes this clone applied offline become work again (requests/offlineWrites.ts); they are
   * applied first, in their order, by any batch that carries it. The caller hands it down: the store runs no request.
   */
  replayer?: Replayer;
  /** The work only reads (a read joining a pulled record into the home): the batch writes nothing in a working tree. */
  readOnly?: boolean;
}

export class HandoffStore {
  readonly now: () => Date;
  /** The state as this clone holds it, for readers outside the commit pipeline (storeReader.ts). */
  readonly reader: StoreReader;
  private readonly logger: StoreLogger;
  private readonly maxBatch: number;
  private readonly configFile: ConfigCache;
  private readonly local: LocalAuthority;
  private remote: { key: string; authority: RemoteAuthority } | null = null;
  private queue: Pending[] = [];
  private flushing = false;
  private startRepair: Promise<void> | null = null;

  constructor(
    readonly layout: WorkspaceLayout,
    options: HandoffStoreOptions = {},
  ) {
    this.reader = new StoreReader(layout);
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? (() => new Date());
    this.maxBatch = options.maxBatch ?? 256;
    this.configFile = new ConfigCache(layout.configFile, (m) => this.logger.warn(m));
    this.local = new LocalAuthority(layout, this.configFile, {
      lockTimeoutMs: options.lockTimeoutMs,
      logger: this.logger,
      now: this.now,
      testHooks: options.testHooks,
      seedNoticeExtras: options.seedNoticeExtras,
    });
  }

  /** Called after every batch that changed the store (the editor refreshes its views from this). */
  onDidChange(listener: (snapshot: StoreSnapshot) => void): { dispose(): void } {
    return this.local.onDidChange(listener);
  }

  /** The configuration, re-read when .agentsync.json changes; a broken file is reported once. */
  config(): LoadedConfig {
    return this.configFile.get();
  }

  /** Drops audit month files older than `audit.retention_days` (none by default); returns the names removed. */
  pruneAudit(now = this.now()): string[] {
    return this.local.audit.prune(this.config().config.audit.retention_days, now);
  }

  /** The audit lines about one handoff, oldest first (the editor's history document). */
  auditFor(h: { uid?: string; handoff_id: string }, limit?: number): AuditEntry[] {
    return this.local.audit.entriesFor(h, limit);
  }

  /** True when the next read would be the first, of a store large enough that checking it whole holds the thread. */
  firstReadIsLarge(): boolean {
    return this.local.file.firstReadIsLarge();
  }

  /** Checks a large store a slice at a time before its first read (local/storeFile.ts). */
  prepareFirstRead(pause: () => Promise<void>): Promise<void> {
    return this.local.file.prepareFirstRead(pause);
  }

  /** An archived handoff by id or uid (read-only; the editor's history document of a handoff no longer open). */
  findArchived(ref: string): Handoff | undefined {
    return this.local.archive.find(ref);
  }

  /**
   * Audits a request refused before it reached the store (bad JSON, schema violation, lock timeout): a refused write
   * in the committed audit, anything else in the runtime read log (docs/contract.md §9).
   */
  auditRefusal(entry: AuditEntry, write: boolean): void {
    this.local.recordRefusal(entry, write);
  }

  /** Reads the store without the lock (the file is only ever replaced whole, so a read is never torn). */
  read(): StoreSnapshot {
    return this.local.read();
  }

  /** The remote authority when `sync` is set in .agentsync.json, else null (this clone decides). */
  syncAuthority(): RemoteAuthority | null {
    const sync = this.config().config.sync;
    if (!sync) return null;
    const key = JSON.stringify(sync);
    if (this.remote?.key !== key) this.remote = { key, authority: new RemoteAuthority(this.local, sync) };
    return this.remote.authority;
  }

  /**
   * One contact with the remote and nothing else (`agentsync sync`, a read with `fresh`): fetch, replay what is pending,
   * push what that changed, bring handoffs.json up to the shared state. Throws the remote's failure (remote_unreachable, …)
   * when it did not answer, in either offline mode. `replayer`: the caller's way to turn pending writes into work.
   */
  async syncNow(replayer?: Replayer): Promise<SyncOutcome | null> {
    let outcome: SyncOutcome | null = null;
    await this.transact(() => undefined, { onSync: (o) => (outcome = o), fetchFirst: true, replayer });
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

  /**
   * Read-only work (list, show, status): no lock and no write to anything committed, so reads work on a read-only
   * checkout and never dirty the working tree. Audit lines go to the runtime reads log, best effort.
   */
  transactRead<T>(work: (tx: StoreTransaction) => T): Promise<T> {
    // Records a pull brought into the main worktree's committed store join the clone's home first (under the lock,
    // writing only the home, never a working tree), so a read after `git pull` sees them (homeRecord.ts).
    if (committedChanged(this.layout))
      return this.transact(() => undefined, { readOnly: true }).then(
        () => this.readNow(work),
        () => this.readNow(work),
      );
    return this.readNow(work);
  }

  private readNow<T>(work: (tx: StoreTransaction) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        try {
          const tx = this.transaction(this.local.read(), () => this.local.ledgerIndex());
          const step = tx.begin();
          const value = work(tx);
          if (tx.changed) {
            step.rollback();
            const message = 'A read-only action tried to change the store; nothing was changed. Report this as a bug.';
            throw new ActionError('internal_error', message);
          }
          this.local.recordRead(tx);
          resolve(value);
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  /**
   * At start (every request surface's first request, `watch`, the editor opening a folder): derived files a crash,
   * git or a hand left out of date are rebuilt now, under the lock, not on the next write.
   */
  repairAtStart(replayer?: Replayer): Promise<void> {
    this.startRepair ??= this.repairIfOutOfDate(replayer);
    return this.startRepair;
  }

  private async repairIfOutOfDate(replayer?: Replayer): Promise<void> {
    if (!this.local.repairWanted()) return;
    await this.transact(() => undefined, { replayer }).catch((e: Error) =>
      this.logger.warn(`could not rebuild the derived files: ${e.message}`),
    );
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
      const remote = this.syncAuthority();
      authority = remote ?? this.local;
      if (remote)
        await remote.prepare(
          batch.some((p) => p.fetchFirst),
          batch.find((p) => p.replayer)?.replayer ?? null,
          batch,
        );
      await this.local.enter(
        remote !== null,
        batch.every((p) => p.readOnly),
      );
    } catch (e) {
      for (const p of batch) p.reject(storageError(e, this.layout.lockFile));
      return;
    }
    let results: WorkResult[];
    const watch = authority === this.local ? null : new LeaseWatch(this.layout.leaseWatchFile);
    try {
      const begin = (base: BaseState) => {
        const tx = this.transaction(base.snapshot, base.ledger);
        tx.leaseWatch = watch;
        return tx;
      };
      results = await applyBatch(authority, batch, begin, (why) => {
        this.local.retrying();
        this.logger.info(`applying the batch again (${why})`);
      });
    } catch (e) {
      this.saveWatch(watch);
      this.local.leave(true);
      for (const p of batch) p.reject(e);
      return;
    }
    this.saveWatch(watch);
    this.local.leave(false);
    results.forEach((r, i) => (r.ok ? batch[i].resolve : batch[i].reject)(r.value));
  }

  /** Still under the lock: two processes of one clone never lose each other's sightings. */
  private saveWatch(watch: LeaseWatch | null): void {
    try {
      watch?.save();
    } catch (e) {
      // Not saved means seen again later: expiry waits longer, never less.
      this.logger.warn(`could not write ${this.layout.leaseWatchFile}: ${(e as Error).message}`);
    }
  }

  private transaction(snapshot: StoreSnapshot, ledger: BaseState['ledger']): StoreTransaction {
    return new StoreTransaction(snapshot, this.config().config, ledger, this.now, this.local.archive, () => readMovedIds(this.layout));
  }
}
