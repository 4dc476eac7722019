// Where every AgentSync file lives in a workspace (docs/contract.md §2, §14). In a git checkout the live record and
// every runtime file live in the clone's home under the git common dir (workspaceHome.ts), one for all of its
// worktrees; the committed files (store copy, tracker, decisions, audit, archive) are the main worktree's, which follow
// the record. Outside git everything is in the workspace folder, as before worktrees.
import * as path from 'node:path';
import { placeWorkspace, type WorkspacePlacement } from './workspaceHome';

export class WorkspaceLayout {
  /** Where the workspace sits in git: its home, main worktree and worktree (null outside git, or a checkout-only layout). */
  readonly placement: WorkspacePlacement | null;
  /** Why this folder's worktree cannot be used (its main checkout moved or deleted, …), or null; nothing is written then. */
  readonly worktreeProblem: string | null;
  /** The folder the live record and runtime files live in: the home, or `.agentsync/` outside git. */
  readonly recordDir: string;
  /** The folder every component of recordDir below is checked from (symlinks refused): the git common dir, or root. */
  readonly recordBase: string;
  /** The folder holding the committed tracker, decisions, audit and archive: the main worktree's workspace (a bare clone: the home). */
  readonly committedRoot: string;
  /** The main worktree's committed store, which follows the record after each write; null outside git (the record is it) and in a bare clone. */
  readonly followStoreFile: string | null;
  /** This checkout's own committed store (what `init` creates and a branch carries); never read as the record in git. */
  readonly checkoutStoreFile: string;
  readonly dataDir: string;
  readonly handoffsFile: string;
  readonly lockFile: string;
  /** The work contexts of passes, one `<uid>.json` each, beside the record and never in it (docs/contract.md §6). */
  readonly contextDir: string;
  /** The keyed hash of the handoffs.json this user last wrote (and so validated); see storeStamp.ts. */
  readonly validatedStampFile: string;
  /** What the tool hooks read of the record (store/hookIndex.ts): its live claims, naming the store they came from. */
  readonly hookIndexFile: string;
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
  /** When this clone first saw each in-progress record, on its own clock: sync mode's lease expiry (docs/contract.md §4); runtime only. */
  readonly leaseWatchFile: string;
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

  /**
   * `checkoutOnly`: the files of this checkout alone, as outside git (what `init` creates and a branch commits);
   * every reader and writer of the record uses the default, which finds the clone's home.
   */
  constructor(
    readonly root: string,
    options: { checkoutOnly?: boolean } = {},
  ) {
    this.root = path.resolve(root);
    this.dataDir = path.join(this.root, '.agentsync');
    this.checkoutStoreFile = path.join(this.dataDir, 'handoffs.json');
    const placed = options.checkoutOnly ? null : placeWorkspace(this.root);
    this.worktreeProblem = placed && 'problem' in placed ? placed.problem : null;
    const placement = placed && 'home' in placed ? placed : null;
    this.placement = placement;
    this.recordDir = placement?.home ?? this.dataDir;
    this.recordBase = placement ? placement.location.commonDir : this.root;
    const committed = placement ? (placement.mainWorkspace ?? placement.home) : this.root;
    this.committedRoot = committed;
    this.followStoreFile = placement?.mainWorkspace ? path.join(placement.mainWorkspace, '.agentsync', 'handoffs.json') : null;
    this.configFileAt = placement ? placement.configFile : path.join(this.root, '.agentsync.json');
    this.handoffsFile = path.join(this.recordDir, 'handoffs.json');
    this.lockFile = path.join(this.recordDir, 'handoffs.lock');
    this.contextDir = path.join(this.recordDir, 'context');
    this.validatedStampFile = path.join(this.recordDir, 'handoffs.validated');
    this.hookIndexFile = path.join(this.recordDir, 'hook-index.json');
    this.trackerFile = path.join(committed, 'AgentTracker.md');
    this.decisionsFile = path.join(committed, 'decisions.md');
    const committedData = placement && !placement.mainWorkspace ? committed : path.join(committed, '.agentsync');
    this.auditDir = path.join(committedData, 'audit');
    this.archiveDir = path.join(committedData, 'archive');
    this.auditJournalFile = path.join(this.recordDir, 'audit-journal.json');
    this.readsLogFile = path.join(this.recordDir, 'reads.jsonl');
    this.stateFile = path.join(this.recordDir, 'state.json');
    this.ledgerFile = path.join(this.recordDir, 'ledger.jsonl');
    this.syncStateFile = path.join(this.recordDir, 'sync.json');
    this.leaseWatchFile = path.join(this.recordDir, 'leaseWatch.json');
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

  private readonly configFileAt: string | (() => string);

  /** The configuration: the main worktree's `.agentsync.json` (a bare clone: its HEAD commit's, kept in the home). */
  get configFile(): string {
    return typeof this.configFileAt === 'string' ? this.configFileAt : this.configFileAt();
  }

  /** A layout of this checkout's files alone (see the constructor). */
  static ofCheckout(root: string): WorkspaceLayout {
    return new WorkspaceLayout(root, { checkoutOnly: true });
  }

  auditFileFor(date: Date): string {
    return path.join(this.auditDir, `${date.toISOString().slice(0, 7)}.jsonl`);
  }

  /** Runtime-only paths that `init` adds to .gitignore (not the whole folder: the store and audit are committed). */
  static readonly GITIGNORE_ENTRIES = [
    '.agentsync/state.json',
    '.agentsync/handoffs.validated',
    '.agentsync/hook-index.json',
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
    '.agentsync/format-told.json',
  ];
}
