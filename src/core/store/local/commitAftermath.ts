// What follows the store's rename (docs/contract.md §12): the batch has happened, so nothing here may turn its answer
// into a refusal. The stamp, ledger, derived files and audit are written best effort, a failure logged and repaired by
// the next batch (the journal holds the audit lines, state.json's storeHash says whether the derived files are current).
import * as fs from 'node:fs';
import { fileStatKey } from '../../disk/fileStatKey';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import type { AuditJournal } from '../auditJournal';
import type { AuditEntry, AuditLog } from '../auditLog';
import { writeDerivedFiles } from '../derivedFiles';
import type { LedgerFile } from '../ledgerFile';
import { digestsOfChunks } from '../storeHash';
import type { StoreSnapshot } from '../storeSnapshot';
import { stampStore } from '../storeStamp';
import { hookIndexNames, writeHookIndex } from '../hookIndex';
import { followRecord } from '../homeRecord';
import type { StoreTransaction } from '../storeTransaction';
import { bestEffort, type StoreLogger } from '../storeLogger';
import type { GitIdle } from './gitIdle';
import type { StoreFile } from './storeFile';

export class CommitAftermath {
  private listeners: ((snapshot: StoreSnapshot) => void)[] = [];

  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly file: StoreFile,
    private readonly ledger: LedgerFile,
    private readonly audit: AuditLog,
    private readonly journal: AuditJournal,
    private readonly git: GitIdle,
    private readonly logger: StoreLogger,
  ) {}

  /** Called after every batch that changed the store (the editor refreshes its views from this). */
  onDidChange(listener: (snapshot: StoreSnapshot) => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }

  /** A batch that wrote no store (refusals, replays): its answers are already true, their traces follow. */
  unchanged(tx: StoreTransaction): void {
    // A ledger that cannot be written only costs a later replay from the store's request markers.
    this.bestEffort('the request ledger', () => this.ledger.append(tx.ledger));
    // No store on this checkout (a branch from before AgentSync): a refusal writes no committed file, or that
    // untracked file would make `git checkout` back fail (docs/contract.md §9).
    if (this.file.exists()) this.appendAudit(tx.audit, () => this.journal.keep(tx.audit));
    this.bestEffort("the hooks' index", () => this.indexUnchanged(tx));
    this.runAfterCommit(tx);
  }

  /**
   * A store no write of this clone left (seeded, joined from the main worktree, edited, a shared state adopted as it
   * was) has no index naming it: every hook would read the whole store until the next write. The batch holds the
   * lock and read the store as it is, so its records are the store's; a head read when the index is current.
   */
  private indexUnchanged(tx: StoreTransaction): void {
    const key = this.file.keyNow();
    if (key !== this.file.loadedKey() || !this.file.exists() || hookIndexNames(this.layout.hookIndexFile, key)) return;
    const hash = this.file.hash();
    if (hash) writeHookIndex(this.layout.hookIndexFile, tx.snapshot.handoffs, key, hash);
  }

  /** The store now holds `tx` (renamed into place; `written`: the temp file's stat before the rename). */
  written(tx: StoreTransaction, hash: string, chunks: readonly Buffer[], written: fs.BigIntStats | null): void {
    this.file.wrote(tx.snapshot, hash);
    const key = writtenKey(this.layout.handoffsFile, written);
    const digests = key ? digestsOfChunks(chunks) : null;
    const stat = key && digests ? { stat: key, digests } : null;
    this.bestEffort('the validated-store stamp', () => stampStore(this.layout.validatedStampFile, hash, stat));
    this.bestEffort("the hooks' index", () => writeHookIndex(this.layout.hookIndexFile, tx.snapshot.handoffs, key, hash));
    this.bestEffort("the main worktree's handoffs.json", () => followRecord(this.layout, chunks));
    this.bestEffort('the request ledger', () => this.ledger.append(tx.ledger));
    const loaded = this.file.takeFreshlyLoaded();
    for (const problem of writeDerivedFiles(this.layout, tx, { storeHash: hash, beforeRename: () => this.git.assertIdle(), loaded })) {
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

  private bestEffort(what: string, fn: () => void): void {
    bestEffort(this.logger, what, fn);
  }
}

/**
 * The stat key of the store file just renamed into place, once it is known to be the one written (`written`: the temp
 * file's stat before the rename, which changes only its change time); null when the file at the path is another
 * (replaced meanwhile) or its stat is not known. The stamp and the hooks' index name the store by it.
 */
function writtenKey(file: string, written: fs.BigIntStats | null): string | null {
  if (!written) return null;
  let now: fs.BigIntStats;
  try {
    now = fs.lstatSync(file, { bigint: true });
  } catch {
    return null;
  }
  const same = now.dev === written.dev && now.ino === written.ino && now.size === written.size && now.mtimeNs === written.mtimeNs;
  return same ? fileStatKey(now) : null;
}
