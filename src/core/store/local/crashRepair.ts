// What a killed writer or a busy git left behind, repaired under the lock before a batch applies: temp files of dead
// writers, decisions.md lines and audit lines a crash cut off (the journal), and derived files (AgentTracker.md,
// state.json) older than the store they are derived from (docs/contract.md §2).
import * as fs from 'node:fs';
import { removeOrphanTempFiles } from '../../disk/atomicFile';
import { assertPlacementUsable } from '../homeRecord';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import type { AuditJournal } from '../auditJournal';
import { appendMissingDecisions, derivedFilesOutOfDate, rebuildDerivedFiles } from '../derivedFiles';
import { bestEffort, type StoreLogger } from '../storeLogger';
import type { GitIdle } from './gitIdle';
import type { StoreFile } from './storeFile';

export class CrashRepair {
  private coldStarted = false;
  /** outOfDateAtStart found the derived files out of date: the next batch checks again under the lock and rebuilds them. */
  private startCheckWanted = false;

  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly file: StoreFile,
    private readonly journal: AuditJournal,
    private readonly git: GitIdle,
    private readonly logger: StoreLogger,
  ) {}

  /**
   * Under the lock, before a batch reads the store. `readOnly`: every request of the batch is a read (a read taking
   * the lock to join a pulled record into the home): in a clone the committed files live in the main worktree, where
   * a read changes nothing (docs/contract.md §14, "Reads dirty nothing"), so their repair waits for the next write.
   */
  beforeBatch(readOnly = false): void {
    if (readOnly && this.inWorkingTree()) return;
    if (!this.coldStarted) this.coldStart();
    this.recoverJournal();
    if (this.startCheckWanted) this.rebuildIfStale();
  }

  /**
   * Checked without the lock (a read of state.json and the tracker), so a current workspace pays no lock: true when
   * the derived files are out of date and this user can write the folder; the next batch then rebuilds them. A store
   * that cannot be read, or a read-only checkout, is left to the request to report. Outside git only.
   */
  outOfDateAtStart(): boolean {
    // A start is no write: in a clone's main worktree the tracker waits for the next write (beforeBatch).
    if (this.inWorkingTree()) return false;
    try {
      this.file.load();
      const hash = this.file.hash();
      if (!hash || !derivedFilesOutOfDate(this.layout, hash)) return false;
      assertPlacementUsable(this.layout, true);
      fs.accessSync(this.layout.recordDir, fs.constants.W_OK);
    } catch {
      return false;
    }
    this.startCheckWanted = true;
    return true;
  }

  /** The derived and committed files are in a git working tree (the main worktree of a clone), not in the home. */
  private inWorkingTree(): boolean {
    return Boolean(this.layout.placement?.mainWorkspace);
  }

  /** First batch of this instance: remove dead writers' temp files, repair what a crash cut off. */
  private coldStart(): void {
    this.coldStarted = true;
    const removed = removeOrphanTempFiles(this.layout.recordDir) + removeOrphanTempFiles(this.layout.committedRoot);
    if (removed) this.logger.info(`removed ${removed} temp file(s) left by killed writers`);
    bestEffort(this.logger, 'decisions.md', () => {
      const added = appendMissingDecisions(this.layout, this.file.load().handoffs);
      if (added) this.logger.info(`decisions.md: added ${added} line(s) a crash had cut off`);
    });
    this.rebuildIfStale();
  }

  /** A crashed writer's audit lines go in now, once; then derived files it never rebuilt are rebuilt. */
  private recoverJournal(): void {
    if (!fs.existsSync(this.layout.auditJournalFile)) return;
    this.file.load();
    let added = 0;
    bestEffort(this.logger, 'the audit log from its journal', () => (added = this.journal.recover(this.file.hash())));
    if (added) this.logger.info(`audit: added ${added} line(s) a crash or a busy git had put off`);
    this.rebuildIfStale(true);
  }

  private rebuildIfStale(afterCrash = false): void {
    this.startCheckWanted = false;
    bestEffort(this.logger, 'the derived files', () => {
      const snapshot = this.file.load();
      const hash = this.file.hash();
      const why = hash && (afterCrash ? 'a writer was cut off' : derivedFilesOutOfDate(this.layout, hash));
      if (!hash || !why) return;
      const problems = rebuildDerivedFiles(this.layout, snapshot.handoffs, { storeHash: hash, beforeRename: () => this.git.assertIdle() });
      for (const problem of problems) this.logger.warn(problem);
      if (problems.length === 0) this.logger.info(`rebuilt AgentTracker.md and state.json from handoffs.json (${why})`);
    });
  }
}
