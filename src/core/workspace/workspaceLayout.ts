// Where every AgentSync file lives in a workspace (docs/contract.md §2).
import * as path from 'node:path';

export class WorkspaceLayout {
  readonly configFile: string;
  readonly dataDir: string;
  readonly handoffsFile: string;
  readonly lockFile: string;
  /** The keyed hash of the handoffs.json this user last wrote (and so validated); see storeStamp.ts. */
  readonly validatedStampFile: string;
  readonly trackerFile: string;
  readonly decisionsFile: string;
  readonly auditDir: string;
  /** Handoffs archived out of handoffs.json, one JSON record a line, a file per month (docs: "The archive"). */
  readonly archiveDir: string;
  /** Audit lines of accepted batches, written before the store rename and cleared after the audit append. */
  readonly auditJournalFile: string;
  /** The runtime (git-ignored) log of read actions, kept out of the committed audit. */
  readonly readsLogFile: string;
  readonly stateFile: string;
  readonly ledgerFile: string;
  /** What this clone knows of the shared state on the git remote (docs/contract.md §13); runtime only. */
  readonly syncStateFile: string;
  readonly requestFile: string;
  readonly resultFile: string;
  readonly requestsDir: string;
  readonly responsesDir: string;
  readonly rejectedDir: string;
  /**
   * The files directly in .agentsync/ that a folder watcher tells apart (agentSyncFolderWatcher.ts), by name: the
   * store, state.json and the single-request file. Defined here, beside their paths, so no watcher names them itself.
   */
  readonly watchedDataFiles: Readonly<Record<string, 'store' | 'state' | 'request'>>;

  constructor(readonly root: string) {
    this.root = path.resolve(root);
    this.configFile = path.join(this.root, '.agentsync.json');
    this.dataDir = path.join(this.root, '.agentsync');
    this.handoffsFile = path.join(this.dataDir, 'handoffs.json');
    this.lockFile = path.join(this.dataDir, 'handoffs.lock');
    this.validatedStampFile = path.join(this.dataDir, 'handoffs.validated');
    this.trackerFile = path.join(this.root, 'AgentTracker.md');
    this.decisionsFile = path.join(this.root, 'decisions.md');
    this.auditDir = path.join(this.dataDir, 'audit');
    this.archiveDir = path.join(this.dataDir, 'archive');
    this.auditJournalFile = path.join(this.dataDir, 'audit-journal.json');
    this.readsLogFile = path.join(this.dataDir, 'reads.jsonl');
    this.stateFile = path.join(this.dataDir, 'state.json');
    this.ledgerFile = path.join(this.dataDir, 'ledger.jsonl');
    this.syncStateFile = path.join(this.dataDir, 'sync.json');
    this.requestFile = path.join(this.dataDir, 'request.json');
    this.resultFile = path.join(this.dataDir, 'result.json');
    this.requestsDir = path.join(this.dataDir, 'requests');
    this.responsesDir = path.join(this.dataDir, 'responses');
    this.rejectedDir = path.join(this.requestsDir, 'rejected');
    this.watchedDataFiles = {
      [path.basename(this.handoffsFile)]: 'store',
      [path.basename(this.stateFile)]: 'state',
      [path.basename(this.requestFile)]: 'request',
    };
  }

  auditFileFor(date: Date): string {
    return path.join(this.auditDir, `${date.toISOString().slice(0, 7)}.jsonl`);
  }

  /** Runtime-only paths that `init` adds to .gitignore (not the whole folder: the store and audit are committed). */
  static readonly GITIGNORE_ENTRIES = [
    '.agentsync/state.json',
    '.agentsync/handoffs.validated',
    '.agentsync/ledger.jsonl',
    '.agentsync/audit-journal.json',
    '.agentsync/reads.jsonl',
    '.agentsync/ledger.prev.jsonl',
    '.agentsync/sync.json',
    '.agentsync/request.json',
    '.agentsync/result.json',
    '.agentsync/requests/',
    '.agentsync/responses/',
    '.agentsync/*.lock',
    '.agentsync/*.lock.break',
    '.agentsync/.*.tmp',
    '.agentsync/hooks/',
  ];
}
