// Writes a batch's state into this clone's handoffs.json (the truth) under the lock: archived records out first, the
// audit lines into the journal, then the file replaced whole, unless it moved since the batch read it (git checkout, a
// hand edit), in which case the batch is applied again. Once the rename happened the batch has happened
// (commitAftermath.ts takes over).
import * as fs from 'node:fs';
import { writeFileAtomic } from '../../disk/atomicFile';
import { ensureSafeDirectory } from '../../disk/safeDirectory';
import { ActionError } from '../../domain/errors';
import type { Handoff } from '../../domain/handoffSchema';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { archiveDue } from '../archive/archivePass';
import type { AuditJournal } from '../auditJournal';
import { storeHashOfChunks } from '../storeHash';
import { bestEffort, type StoreLogger } from '../storeLogger';
import type { StoreTransaction } from '../storeTransaction';
import type { CommitAftermath } from './commitAftermath';
import type { GitIdle } from './gitIdle';
import type { StoreFile } from './storeFile';
import type { StoreLock } from './storeLock';

/** Test seams, not API: run at fixed points of a commit so tests can fail or crash there. */
export interface CommitTestHooks {
  afterStoreRename?: () => void;
}

/** The store changed between our read and our rename (git checkout, a hand edit): the batch is applied again. */
export class StoreMoved extends Error {
  refusal(): ActionError {
    const message = `.agentsync/handoffs.json kept changing while AgentSync wrote it (${this.message}); nothing was changed. Retry when git is done.`;
    return new ActionError('store_busy', message);
  }
}

export class StoreCommit {
  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly file: StoreFile,
    private readonly lock: StoreLock,
    private readonly journal: AuditJournal,
    private readonly git: GitIdle,
    private readonly aftermath: CommitAftermath,
    private readonly logger: StoreLogger,
    private readonly testHooks: CommitTestHooks = {},
  ) {}

  /**
   * Makes `tx` this clone's store. `decidedElsewhere` (the remote decided it): the file follows the shared state
   * whenever their bytes differ, even for a batch that changed nothing (another clone's writes arrive this way), and
   * whatever replaced the file meanwhile is overwritten.
   */
  write(tx: StoreTransaction, archivable: readonly Handoff[], decidedElsewhere = false): void {
    this.lock.assertHeld();
    const follows = decidedElsewhere && (tx.changed || this.file.hashOnDisk() !== storeHashOfChunks(tx.snapshot.serializeChunks()));
    if (!tx.changed && !follows) {
      this.aftermath.unchanged(tx);
      return;
    }
    ensureSafeDirectory(this.layout.root, this.layout.dataDir);
    // Only a batch that writes the store anyway archives: a refusal changes nothing, not even the archive.
    archiveDue(this.layout, tx.snapshot, archivable, this.logger);
    const chunks = tx.snapshot.serializeChunks();
    const hash = storeHashOfChunks(chunks);
    if (tx.audit.length) this.journal.write(hash, tx.audit);
    const loadedKey = this.file.loadedKey();
    let written: fs.BigIntStats | null = null;
    try {
      writeFileAtomic(this.layout.handoffsFile, chunks, {
        written: (st) => (written = st),
        beforeRename: () => {
          this.lock.assertHeld();
          if (decidedElsewhere) return;
          const now = this.file.keyNow();
          if (now !== loadedKey) throw new StoreMoved(`it was ${loadedKey}, now ${now}`);
          if (this.git.busy()) throw new StoreMoved('git is replacing files');
        },
      });
    } catch (e) {
      bestEffort(this.logger, 'the audit journal', () => this.journal.clear());
      throw e;
    }
    // The rename happened: from here on the answer is the truth.
    bestEffort(this.logger, 'the step after the store write', () => this.testHooks.afterStoreRename?.());
    // Process tests of crash recovery kill the writer here (test/process/crashSafety.test.ts); not user API.
    if (process.env.AGENTSYNC_TEST_CRASH_AFTER_STORE_RENAME === '1') process.kill(process.pid, 'SIGKILL');
    this.aftermath.written(tx, hash, chunks, written);
  }
}
