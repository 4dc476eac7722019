// HandoffStore: the one way to change handoffs.json. Requests queue up; each batch takes the cross-process
// lock once, re-reads the store if another process changed it, applies every waiting request in order,
// then writes the store, the ledger, the derived files and the audit once (DESIGN §12: one lock, one write).
import * as fs from 'node:fs';
import { removeOrphanTempFiles, writeFileAtomic } from './atomicFile';
import { AuditLog } from './auditLog';
import { loadConfig, type LoadedConfig } from './configLoader';
import { ActionError } from './errors';
import { FileLock } from './fileLock';
import { assertSafeDirectory, ensureSafeDirectory } from './safeDirectory';
import { LedgerFile } from './ledgerFile';
import { StoreSnapshot } from './storeSnapshot';
import { StoreTransaction } from './storeTransaction';
import { appendMissingDecisions, writeDerivedFiles } from './derivedFiles';
import type { WorkspaceLayout } from './workspaceLayout';

export const MAX_STORE_BYTES = 200 * 1024 * 1024;

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
}

interface Pending {
  work: (tx: StoreTransaction) => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

const silent: StoreLogger = { info: () => undefined, warn: () => undefined };

export class HandoffStore {
  private readonly lock: FileLock;
  private readonly ledger: LedgerFile;
  private readonly audit: AuditLog;
  private readonly logger: StoreLogger;
  readonly now: () => Date;
  private readonly maxBatch: number;
  private cached: { key: string; snapshot: StoreSnapshot } | null = null;
  private configCache: { key: string; loaded: LoadedConfig } | null = null;
  private reportedConfigProblem: string | null = null;
  private queue: Pending[] = [];
  private preparedDir = false;
  private flushing = false;
  private listeners: ((snapshot: StoreSnapshot) => void)[] = [];

  constructor(
    readonly layout: WorkspaceLayout,
    options: HandoffStoreOptions = {},
  ) {
    this.lock = new FileLock(layout.lockFile, options.lockTimeoutMs ?? 10_000);
    this.ledger = new LedgerFile(layout.ledgerFile);
    this.audit = new AuditLog(layout);
    this.logger = options.logger ?? silent;
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

  /** Audits a request refused before it reached the store (bad JSON, schema violation, lock timeout). */
  auditRefusal(entry: import('./auditLog').AuditEntry): void {
    this.audit.append([entry]);
  }

  /** Reads the store without the lock (the file is only ever replaced whole, so a read is never torn). */
  read(): StoreSnapshot {
    return this.load();
  }

  /** Runs `work` inside the lock, batched with whatever else is waiting. Its return value resolves the promise. */
  transact<T>(work: (tx: StoreTransaction) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
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
    try {
      // The lock lives in .agentsync/; a request in a folder not yet initialized creates it. Every batch: a
      // symlinked .agentsync/ or audit/ (e.g. checked out from git) is refused before anything is written.
      ensureSafeDirectory(this.layout.root, this.layout.dataDir);
      assertSafeDirectory(this.layout.root, this.layout.auditDir);
      await this.lock.acquire();
      if (!this.preparedDir) {
        this.preparedDir = true;
        const removed = removeOrphanTempFiles(this.layout.dataDir) + removeOrphanTempFiles(this.layout.root);
        if (removed) this.logger.info(`removed ${removed} temp file(s) left by killed writers`);
        try {
          const added = appendMissingDecisions(this.layout, this.load().handoffs);
          if (added) this.logger.info(`decisions.md: added ${added} line(s) a crash had cut off`);
        } catch (e) {
          this.logger.warn(`could not check decisions.md: ${(e as Error).message}`);
        }
      }
    } catch (e) {
      for (const p of batch) p.reject(e);
      return;
    }
    const results: { p: Pending; ok: boolean; value: unknown }[] = [];
    try {
      const snapshot = this.load();
      const tx = new StoreTransaction(snapshot, this.config().config, () => this.ledger.index(), this.now);
      for (const p of batch) {
        const step = tx.begin();
        try {
          results.push({ p, ok: true, value: p.work(tx) });
        } catch (e) {
          step.rollback();
          results.push({ p, ok: false, value: e });
        }
      }
      this.commit(tx);
    } catch (e) {
      this.cached = null; // whatever is in memory may not be on disk: re-read next time
      this.lock.release();
      for (const p of batch) p.reject(e);
      return;
    }
    this.lock.release();
    for (const r of results) (r.ok ? r.p.resolve : r.p.reject)(r.value);
  }

  /** Writes, in this order: the store (the truth), the ledger, then the derived files and audit. */
  private commit(tx: StoreTransaction): void {
    // Fencing: a process whose lock was taken over (its lease expired while it was frozen) writes nothing.
    this.lock.assertHeld();
    if (tx.changed) {
      ensureSafeDirectory(this.layout.root, this.layout.dataDir);
      writeFileAtomic(this.layout.handoffsFile, tx.snapshot.serializeChunks(), { beforeRename: () => this.lock.assertHeld() });
      this.cached = { key: statKey(this.layout.handoffsFile), snapshot: tx.snapshot };
      writeFileAtomic(this.layout.validatedStampFile, this.cached.key, { durable: false });
    }
    this.ledger.append(tx.ledger);
    if (tx.changed) {
      for (const problem of writeDerivedFiles(this.layout, tx)) this.logger.warn(problem);
    }
    for (const w of tx.afterCommit) {
      try {
        w.run();
      } catch (e) {
        this.logger.warn(`could not update ${w.what}: ${(e as Error).message}`);
      }
    }
    try {
      this.audit.append(tx.audit);
    } catch (e) {
      this.logger.warn(`could not write the audit log: ${(e as Error).message}`);
    }
    if (tx.changed) for (const l of this.listeners) l(tx.snapshot);
  }

  private load(): StoreSnapshot {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(this.layout.handoffsFile);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      if (!this.cached || this.cached.key !== 'missing') this.cached = { key: 'missing', snapshot: StoreSnapshot.empty() };
      return this.cached.snapshot;
    }
    if (!st.isFile()) {
      throw new ActionError('store_unsafe', '.agentsync/handoffs.json is a symlink or special file; AgentSync will not follow it. Replace it with a regular file.');
    }
    if (st.size > MAX_STORE_BYTES) {
      throw new ActionError('too_large', `.agentsync/handoffs.json is ${st.size} bytes, over the ${MAX_STORE_BYTES}-byte limit; archive old handoffs and retry.`);
    }
    const key = keyOf(st);
    if (this.cached?.key === key) return this.cached.snapshot;
    const snapshot = StoreSnapshot.parse(fs.readFileSync(this.layout.handoffsFile, 'utf8'), readStamp(this.layout.validatedStampFile) === key);
    this.cached = { key, snapshot };
    return snapshot;
  }
}

function readStamp(file: string): string | null {
  try {
    return fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : null;
  } catch {
    return null;
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

