// This clone's store as the authority (docs/contract.md §12): a batch reads handoffs.json under the lock (after crash
// repair, waiting out git's unlink-then-write gap) and writes it back, with the ledger, the derived files and the
// audit. Every path comes from the layout it is given, nowhere else: where the layout puts this clone's files is
// where they are. The remote authority (sync/remoteAuthority.ts) is composed over this one: it takes its base here
// when the remote is unreachable, and writes the state the remote decided through `adopt`.
import * as fs from 'node:fs';
import { ensureSafeDirectory, assertSafeDirectory } from '../../disk/safeDirectory';
import { isActionError } from '../../domain/errors';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { dueForArchive } from '../archive/archivePass';
import { ArchiveReader } from '../archive/archiveReader';
import { AuditJournal } from '../auditJournal';
import { AuditLog, type AuditEntry } from '../auditLog';
import type { ConfigCache } from '../configCache';
import { LedgerFile } from '../ledgerFile';
import type { BaseState, Decision, StateAuthority } from '../stateAuthority';
import type { StoreSnapshot } from '../storeSnapshot';
import { bestEffort, type StoreLogger } from '../storeLogger';
import type { LedgerEntry, StoreTransaction } from '../storeTransaction';
import { CommitAftermath } from './commitAftermath';
import { CrashRepair } from './crashRepair';
import { appendMissingDecisions } from '../derivedFiles';
import { GitIdle } from './gitIdle';
import { StoreCommit, StoreMoved, type CommitTestHooks } from './storeCommit';
import { StoreFile } from './storeFile';
import { StoreLock } from './storeLock';
import type { Handoff, HandoffsFile } from '../../domain/handoffSchema';
import { assertPlacementUsable, joinCommitted, mayWriteCommitted, takeSeedNotice } from '../homeRecord';

/** How often a batch is applied again while handoffs.json keeps moving under it, before it is refused store_busy. */
const MAX_BATCH_ATTEMPTS = 20;
/** How long a missing store is waited for (git unlinks then re-creates a file it checks out). */
const MISSING_STORE_WAIT_MS = 2_000;

export interface LocalAuthorityOptions {
  lockTimeoutMs?: number;
  logger: StoreLogger;
  now: () => Date;
  testHooks?: CommitTestHooks;
  /** More lines for the home's seeding notice (homeRecord.ts, takeSeedNotice). */
  seedNoticeExtras?: (record: HandoffsFile) => string[];
}

export class LocalAuthority implements StateAuthority {
  readonly lock: StoreLock;
  readonly file: StoreFile;
  readonly ledger: LedgerFile;
  readonly audit: AuditLog;
  readonly archive: ArchiveReader;
  readonly logger: StoreLogger;
  readonly now: () => Date;
  private readonly journal: AuditJournal;
  private readonly git: GitIdle;
  private readonly aftermath: CommitAftermath;
  private readonly commit: StoreCommit;
  private readonly repair: CrashRepair;
  private missingDeadline = 0;
  /** The batch under the lock now holds only reads (enter's `readOnly`): crash repair leaves the working tree alone. */
  private readOnlyBatch = false;
  private readonly seedNoticeExtras?: (record: HandoffsFile) => string[];

  constructor(
    readonly layout: WorkspaceLayout,
    private readonly config: ConfigCache,
    options: LocalAuthorityOptions,
  ) {
    this.logger = options.logger;
    this.now = options.now;
    this.seedNoticeExtras = options.seedNoticeExtras;
    this.lock = new StoreLock(layout.lockFile, options.lockTimeoutMs);
    this.file = new StoreFile(layout);
    this.ledger = new LedgerFile(layout.ledgerFile);
    this.audit = new AuditLog(layout);
    this.journal = new AuditJournal(layout.auditJournalFile, this.audit);
    this.archive = new ArchiveReader(layout, (m) => this.logger.warn(m));
    this.git = new GitIdle(layout.committedRoot);
    this.aftermath = new CommitAftermath(layout, this.file, this.ledger, this.audit, this.journal, this.git, this.logger);
    this.commit = new StoreCommit(layout, this.file, this.lock, this.journal, this.git, this.aftermath, this.logger, options.testHooks);
    this.repair = new CrashRepair(layout, this.file, this.journal, this.git, this.logger);
  }

  onDidChange(listener: (snapshot: StoreSnapshot) => void): { dispose(): void } {
    return this.aftermath.onDidChange(listener);
  }

  /**
   * Takes the lock for a batch; `remote`: the batch is decided by the remote, whose holder waits on the network. The
   * lock lives in the record's folder (the clone's home in git, docs/contract.md §14; .agentsync/ outside it); a
   * request in a folder not yet initialized creates it. Every batch: a worktree that cannot be used, a clone without
   * its configuration (config_missing), a symlinked .agentsync/ or audit/ (e.g. checked out from git) is refused
   * before anything is written. `readOnly`: the batch holds only reads (crashRepair.ts, beforeBatch).
   */
  async enter(remote: boolean, readOnly = false): Promise<void> {
    assertPlacementUsable(this.layout, true);
    ensureSafeDirectory(this.layout.recordBase, this.layout.recordDir);
    assertSafeDirectory(this.layout.root, this.layout.dataDir);
    assertSafeDirectory(this.layout.committedRoot, this.layout.auditDir);
    await this.lock.acquire(remote);
    this.readOnlyBatch = readOnly;
    this.missingDeadline = Date.now() + MISSING_STORE_WAIT_MS;
  }

  /** Releases the lock; after a failed batch whatever is in memory may not be on disk, so the next read reads. */
  leave(failed: boolean): void {
    if (failed) this.file.forget();
    this.lock.release();
  }

  /** The batch is applied again: its state is read again. */
  retrying(): void {
    this.file.forget();
  }

  /** This clone's store after crash repair, waiting out git's unlink-then-write gap. Under the lock. */
  async base(): Promise<BaseState> {
    for (;;) {
      await this.waitForSteadyStore();
      try {
        this.repair.beforeBatch(this.readOnlyBatch);
        this.joinFromMainWorktree();
        const snapshot = this.file.load();
        this.sayNotices();
        const archivable = dueForArchive(snapshot.handoffs, this.config.get().config, this.now());
        return { snapshot, ledger: () => this.ledger.index(), archivable, replays: [] };
      } catch (e) {
        // git unlinked the store between our wait and our read: wait for its new file, within the same bound.
        if (isActionError(e) && e.reason === 'store_missing' && Date.now() < this.missingDeadline) continue;
        // A store read while git rewrote it in place (a checkout that started after our wait): cut short, not broken.
        // Read again once git is done, within the same bound; a store that stays unreadable is refused as it is.
        if (isActionError(e) && e.reason === 'store_invalid' && Date.now() < this.missingDeadline) {
          if (this.git.busy() || this.file.changedSinceLoad()) continue;
        }
        throw e;
      }
    }
  }

  decide(tx: StoreTransaction, base: BaseState): Promise<Decision> {
    try {
      this.commit.write(tx, base.archivable);
      return Promise.resolve({ kind: 'decided' });
    } catch (e) {
      if (e instanceof StoreMoved) return Promise.resolve({ kind: 'moved', why: e.message });
      return Promise.reject(e);
    }
  }

  another(attempt: number): Promise<boolean> {
    return Promise.resolve(attempt < MAX_BATCH_ATTEMPTS);
  }

  exhausted(why: string): Error {
    return new StoreMoved(why).refusal();
  }

  /** Writes a state decided elsewhere (the remote) to this clone: handoffs.json when its bytes differ, ledger, derived files, audit. */
  adopt(tx: StoreTransaction): void {
    this.commit.write(tx, [], true);
  }

  /** The records due for the archive now, by this clone's configuration (sync mode's archive pass, sync/sharedWrite.ts). */
  dueForArchive(handoffs: readonly Handoff[]): Handoff[] {
    return dueForArchive(handoffs, this.config.get().config, this.now());
  }

  ledgerIndex(): ReadonlyMap<string, LedgerEntry> {
    return this.ledger.index();
  }

  /** The store without the lock (the file is only ever replaced whole, so a read is never torn). */
  read(): StoreSnapshot {
    const snapshot = this.file.load();
    this.sayNotices();
    return snapshot;
  }

  /** The home's seeding notice, said by the one process that seeded it (homeRecord.ts). */
  private sayNotices(): void {
    for (const line of takeSeedNotice(this.layout, this.seedNoticeExtras)) this.logger.warn(line);
  }

  /** Records a `git pull` brought into the main worktree's committed store join the clone's home (homeRecord.ts). */
  private joinFromMainWorktree(): void {
    bestEffort(this.logger, "the main worktree's records", () => {
      const archivedRev = (uid: string): number | undefined => {
        const archived = this.archive.find(uid);
        return archived ? (archived.rev ?? 0) : undefined;
      };
      const joined = joinCommitted(this.layout, archivedRev, this.now());
      if (!joined.length) return;
      this.logger.info(`joined ${joined.length} record(s) from the main worktree's handoffs.json: ${joined.join(', ')}`);
      // A finished record the merge renumbered has its decisions.md line under its old id (decisionsLog.ts).
      appendMissingDecisions(this.layout, this.file.load().handoffs);
    });
  }

  /** A read's traces: the runtime reads log and the ledger, best effort; where there is no store, nothing at all. */
  recordRead(tx: StoreTransaction): void {
    if (!this.file.exists()) return;
    bestEffort(this.logger, 'the reads log', () => this.audit.appendReads(tx.audit));
    bestEffort(this.logger, 'the request ledger', () => this.ledger.append(tx.ledger));
  }

  /**
   * A request refused before it reached the store: a refused write in the committed audit, anything else in the
   * runtime read log (docs/contract.md §9). Without a store on this checkout nothing is written at all: a file created
   * there would be untracked, and `git checkout` back would refuse to overwrite it.
   */
  recordRefusal(entry: AuditEntry, write: boolean): void {
    if (!this.file.exists() || !mayWriteCommitted(this.layout)) return;
    // A refusal because .agentsync is redirected (store_unsafe) must not be logged through that redirection either.
    try {
      assertSafeDirectory(this.layout.root, this.layout.dataDir);
    } catch {
      return;
    }
    if (write) this.audit.append([entry]);
    else this.audit.appendReads([entry]);
  }

  /** True when derived files a crash, git or a hand left out of date want a batch to rebuild them (crashRepair.ts). */
  repairWanted(): boolean {
    return this.repair.outOfDateAtStart();
  }

  /** Waits (bounded) while git is replacing files, and through git's unlink-then-write gap of a missing store. */
  private async waitForSteadyStore(): Promise<void> {
    await this.git.wait(this.logger);
    const until = Date.now() + MISSING_STORE_WAIT_MS;
    while (!fs.existsSync(this.layout.handoffsFile) && this.file.expected() && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
