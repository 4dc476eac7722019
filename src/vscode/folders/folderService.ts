// One AgentSync service per workspace folder: its store, its ONE RequestDispatcher (surface "vscode"), and its ONE
// file watcher (the core's AgentSyncFolderWatcher, docs/architecture.md), which notices changes made by any other
// surface (CLI, agents, another window) and feeds the tree, the session states, the dashboard and the drop zone.
// Nothing is read at construction: the first view() reads the store.
import { placeOf } from '../../core/git/worktreePlace';
import * as vscode from 'vscode';
import { HandoffStore, type StoreLogger } from '../../core/store/handoffStore';
import { BackgroundSync, type BackgroundSyncStatus } from '../../core/store/backgroundSync';
import { isWorkspaceFolder } from '../../core/store/workspaceRoot';
import { RequestDispatcher, type ActionResponse, type RequestFor, type RequestResponse } from '../../core/requests/requestDispatcher';
import type { ActionName } from '../../core/requests/catalog';
import { defaultConfig, type AgentSyncConfig } from '../../core/domain/configSchema';
import { WorkspaceLayout } from '../../core/workspace/workspaceLayout';
import type { Handoff } from '../../core/domain/handoffSchema';
import type { StoreSnapshot } from '../../core/store/storeSnapshot';
import { AgentSyncFolderWatcher, type FolderChangeSource } from '../../core/workspace/agentSyncFolderWatcher';
import { SyncConsentOffer } from './syncConsentOffer';

/** What the tree and badge need from a folder, read once per store change. */
export interface FolderView {
  initialized: boolean;
  handoffs: readonly Handoff[];
  config: AgentSyncConfig;
  /** A store or config problem to show instead of (or above) the handoffs. */
  problem: string | null;
  /** A large store is being checked before its first read (HandoffStore.prepareFirstRead): no handoffs yet. */
  checking?: boolean;
}

const WATCH_DEBOUNCE_MS = 10;

export class FolderService implements vscode.Disposable {
  readonly layout: WorkspaceLayout;
  readonly store: HandoffStore;
  readonly dispatcher: RequestDispatcher;
  private readonly emitter = new vscode.EventEmitter<FolderService>();
  /** Fires when what view() returns may have changed. */
  readonly onDidChange = this.emitter.event;
  private readonly stateEmitter = new vscode.EventEmitter<FolderService>();
  /** Fires when .agentsync/state.json (the sessions) may have changed; not debounced. */
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly watcher: AgentSyncFolderWatcher;
  private readonly disposables: vscode.Disposable[] = [];
  private lastSnapshot: StoreSnapshot | null = null;
  private lastView: FolderView | null = null;
  private announced: FolderView | null = null;
  private pending: NodeJS.Timeout | undefined;
  private disposed = false;
  private pendingInvalidate = false;
  private firstRead: 'unknown' | 'checking' | 'done' = 'unknown';
  private readonly backgroundSync: BackgroundSync;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.layout = new WorkspaceLayout(folder.uri.fsPath);
    const storeLog: StoreLogger = { info: (m) => log.info(`[${folder.name}] ${m}`), warn: (m) => log.warn(`[${folder.name}] ${m}`) };
    this.store = new HandoffStore(this.layout, { logger: storeLog });
    // The window's own requests come from its worktree; the editor is no agent session (docs/contract.md §4).
    const place = placeOf(this.layout.root);
    this.dispatcher = new RequestDispatcher(this.store, 'vscode', false, { ...place, sessionOf: () => null });
    // Writes through this window's store are known at once; the watcher covers every other writer.
    this.disposables.push(this.store.onDidChange(() => this.invalidate()));
    this.watcher = new AgentSyncFolderWatcher(this.layout, (e) => log.warn(`[${folder.name}] file watcher: ${e.message}`));
    this.watcher.onDidChange((kind) => {
      if (kind === 'config' || kind === 'store') this.scheduleCheck();
      else if (kind === 'state') this.stateEmitter.fire(this);
      // `sync` turned on (or its remote or interval changed): sync now, then at the new interval.
      if (kind === 'config' && vscode.workspace.isTrusted) this.backgroundSync.start();
    });
    this.disposables.push(this.emitter, this.stateEmitter);
    // With `sync` on, other machines' writes reach this window's views by a sync every sync.interval_s; only in a
    // trusted folder (no network on behalf of a folder the user has not trusted).
    // Refused for want of this machine's consent, the window asks for it (syncConsentOffer.ts) and starts over once given.
    const consent = new SyncConsentOffer(
      this.layout.root,
      () => this.layout.configFile,
      folder.name,
      log,
      () => this.backgroundSync.start(),
    );
    this.backgroundSync = new BackgroundSync(
      this.store,
      (status) => {
        this.invalidate();
        consent.offer(status);
      },
      this.dispatcher.replayer,
    );
    if (vscode.workspace.isTrusted) this.backgroundSync.start();
    else this.disposables.push(vscode.workspace.onDidGrantWorkspaceTrust(() => this.backgroundSync.start()));
  }

  /** When this clone last heard from the git remote and how that went; null while `sync` is off. */
  syncStatus(): BackgroundSyncStatus | null {
    try {
      return this.backgroundSync.status();
    } catch {
      return null;
    }
  }

  /** The folder's file events, for the drop zone it hosts (its `request` events). */
  get changes(): FolderChangeSource {
    return this.watcher;
  }

  get name(): string {
    return this.folder.name;
  }

  isInitialized(): boolean {
    return isWorkspaceFolder(this.layout.root);
  }

  /** The folder's handoffs and config; the store caches by file stat, so this is cheap when nothing changed. */
  view(): FolderView {
    this.watcher.ensure(); // e.g. the folder was deleted and made again: watched again on the next read
    const initialized = this.isInitialized();
    const loaded = this.store.config();
    let snapshot: StoreSnapshot | null = null;
    let problem: string | null = loaded.problem;
    const checking = this.checkingFirstRead();
    try {
      if (!checking) snapshot = this.store.read();
    } catch (e) {
      problem = (e as Error).message;
    }
    // The editor opening the folder is a start (docs/contract.md §2): out-of-date derived files are rebuilt, under the
    // lock, off this turn. After the first read, so a large store is never read here whole.
    if (snapshot && initialized) void this.store.repairAtStart(this.dispatcher.replayer);
    const config = loaded.config ?? defaultConfig();
    const prev = this.lastView;
    const same = prev && prev.config === config && prev.problem === problem && prev.initialized === initialized;
    if (same && snapshot === this.lastSnapshot && !!prev.checking === checking) return prev;
    this.lastSnapshot = snapshot;
    this.lastView = { initialized, handoffs: snapshot?.handoffs ?? [], config, problem, ...(checking ? { checking } : {}) };
    return this.lastView;
  }

  /**
   * True while a large store is checked before its first read, a slice per turn of the event loop, so that the
   * extension host is never held for the whole check (docs/agentsync-documentation.md, "The tree at scale"); the
   * views are told when it is done.
   */
  private checkingFirstRead(): boolean {
    if (this.firstRead !== 'unknown') return this.firstRead === 'checking';
    if (!this.store.firstReadIsLarge()) {
      this.firstRead = 'done';
      return false;
    }
    this.firstRead = 'checking';
    this.store
      .prepareFirstRead(() => new Promise((resolve) => setImmediate(resolve)))
      .catch((e: Error) => this.log.warn(`[${this.name}] could not check the store ahead of its first read: ${e.message}`))
      .finally(() => {
        this.firstRead = 'done';
        if (!this.disposed) this.checkForChanges();
      });
    return true;
  }

  find(idOrUid: string): Handoff | undefined {
    return this.view().handoffs.find((h) => h.handoff_id === idOrUid || h.uid === idOrUid);
  }

  /** Every editor action goes through here: the same dispatcher, validation, lock and audit as any surface. */
  dispatch<A extends ActionName>(request: RequestFor<A>): Promise<ActionResponse<A>>;
  dispatch(request: Record<string, unknown>): Promise<RequestResponse>;
  dispatch(request: Record<string, unknown>): Promise<RequestResponse> {
    return this.dispatcher.dispatch(request, { surface: 'vscode' });
  }

  /**
   * Re-reads now and tells listeners if what they were last told about changed (the refresh command, file events).
   * Compared with the last view announced, not the last one built: a read in between (the tree asking for
   * children) must not swallow the announcement.
   */
  checkForChanges(): boolean {
    const current = this.view();
    if (current === this.announced) return false;
    this.announced = current;
    this.emitter.fire(this);
    return true;
  }

  /**
   * A write through this window's store: the snapshot was changed in place, so identity cannot tell; always tell
   * listeners. Deferred, so the tree and badge never delay the write's own answer (the store calls this mid-commit).
   */
  private invalidate(): void {
    this.lastView = null;
    if (this.pendingInvalidate) return;
    this.pendingInvalidate = true;
    setImmediate(() => {
      this.pendingInvalidate = false;
      if (!this.disposed) this.checkForChanges();
    });
  }

  private scheduleCheck(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      try {
        this.checkForChanges();
      } catch (e) {
        this.log.error(`[${this.name}] could not re-read the store: ${(e as Error).message}`);
      }
    }, WATCH_DEBOUNCE_MS);
  }

  dispose(): void {
    this.disposed = true;
    this.backgroundSync.stop();
    this.watcher.close();
    if (this.pending) clearTimeout(this.pending);
    for (const d of this.disposables) d.dispose();
  }
}
