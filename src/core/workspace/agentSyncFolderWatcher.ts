// The one watcher piece of a workspace folder (docs/architecture.md, "One watcher per folder"): it watches the
// folder's AgentSync files once and tells subscribers which kind of file changed. Plain fs.watch (inotify on Linux),
// non-recursive, on at most three folders: the folder itself (.agentsync.json, .agentsync/ appearing or going),
// .agentsync/ (handoffs.json, state.json, request.json) and .agentsync/requests/ (one level); in a git clone also
// the clone's home, where the live record and state.json are (docs/contract.md §14), written from any worktree.
// Not VS Code's watcher: it batches events for hundreds of ms. Not chokidar: it stats a file before reporting it,
// and request.json, re-created under the same name again and again and renamed away by the drop zone at once, was
// mostly missed (measured; caught only by the rescan). A symlinked .agentsync/ or requests/ is not followed.
// Errors go to onError, never thrown; what cannot be watched yet is attached when its parent reports it, or by
// ensure(), which the rescans call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkspaceLayout } from './workspaceLayout';

/** Which AgentSync file changed: `.agentsync.json`, `handoffs.json`, `state.json`, or a drop-zone request. */
export type FolderFileKind = 'config' | 'store' | 'state' | 'request';

/** What the drop zone (and any other subscriber) needs from a folder's watcher. */
export interface FolderChangeSource {
  onDidChange(listener: (kind: FolderFileKind) => void): { dispose(): void };
  /** Attaches what is not watched yet (a folder created or re-created since); cheap when nothing is missing. */
  ensure(): void;
}

/** A folder appearing or going may have changed anything inside it. */
const INSIDE_DATA_DIR: readonly FolderFileKind[] = ['store', 'state', 'request'];

/** Live watchers per folder root: the integration suite asserts a folder runs exactly one. */
const live = new Map<string, number>();

interface Watched {
  handle: fs.FSWatcher;
  ino: number;
}

/** The inode of a real directory at `dir` (not a symlink), or null. */
function directoryInode(dir: string): number | null {
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() ? st.ino : null;
  } catch {
    return null;
  }
}

export class AgentSyncFolderWatcher implements FolderChangeSource {
  private readonly listeners = new Set<(kind: FolderFileKind) => void>();
  private rootDir: Watched | null = null;
  private dataDir: Watched | null = null;
  private requestsDir: Watched | null = null;
  /** The clone's home (the record's folder), when it is not .agentsync/ itself. */
  private recordDir: Watched | null = null;
  private closed = false;

  static liveCount(root: string): number {
    return live.get(root) ?? 0;
  }

  constructor(
    readonly layout: WorkspaceLayout,
    private readonly onError: (e: Error) => void = () => undefined,
  ) {
    live.set(layout.root, AgentSyncFolderWatcher.liveCount(layout.root) + 1);
    this.attachAll(false);
  }

  onDidChange(listener: (kind: FolderFileKind) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  ensure(): void {
    // All three watched: nothing to look at (a folder replaced since is reported by its parent's watch).
    if (this.requestsDir && (this.recordDir || !this.separateRecord)) return;
    this.attachAll(true);
  }

  /** How many folders are watched now (0 to 3); the tests read it. */
  get handleCount(): number {
    return [this.rootDir, this.dataDir, this.requestsDir, this.recordDir].filter(Boolean).length;
  }

  private get separateRecord(): boolean {
    return this.layout.recordDir !== this.layout.dataDir;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of [this.rootDir, this.dataDir, this.requestsDir, this.recordDir]) w?.handle.close();
    this.rootDir = this.dataDir = this.requestsDir = this.recordDir = null;
    this.listeners.clear();
    const n = AgentSyncFolderWatcher.liveCount(this.layout.root) - 1;
    if (n > 0) live.set(this.layout.root, n);
    else live.delete(this.layout.root);
  }

  /**
   * Matches the handles to what is on disk: a folder gone or replaced (another inode) is let go, one that is there
   * and not watched is attached. `late`: attached after start, so what was written inside before is announced.
   */
  private attachAll(late: boolean): void {
    if (this.closed) return;
    const { root, dataDir, requestsDir } = this.layout;
    this.rootDir = this.sync(this.rootDir, root, (name) => this.onRootEvent(name));
    const hadData = this.dataDir;
    this.dataDir = this.rootDir ? this.sync(this.dataDir, dataDir, (name) => this.onDataEvent(name)) : this.letGo(this.dataDir);
    const hadRequests = this.requestsDir;
    this.requestsDir = this.dataDir
      ? this.sync(this.requestsDir, requestsDir, (name) => this.onRequestsEvent(name))
      : this.letGo(this.requestsDir);
    const hadRecord = this.recordDir;
    if (this.separateRecord) this.recordDir = this.sync(this.recordDir, this.layout.recordDir, (name) => this.onRecordEvent(name));
    if (!late) return;
    if (this.recordDir !== hadRecord) for (const kind of ['store', 'state'] as const) this.emit(kind);
    if (this.dataDir !== hadData) for (const kind of INSIDE_DATA_DIR) this.emit(kind);
    else if (this.requestsDir !== hadRequests) this.emit('request');
  }

  private sync(current: Watched | null, dir: string, onEvent: (name: string | null) => void): Watched | null {
    const ino = directoryInode(dir);
    if (current && current.ino === ino) return current;
    current?.handle.close();
    if (ino === null) return null;
    try {
      const handle = fs.watch(dir, { persistent: false }, (_event, name) => onEvent(name === null ? null : String(name)));
      const watched: Watched = { handle, ino };
      handle.on('error', (e) => {
        handle.close();
        this.forget(watched);
        this.onError(new Error(`watching ${dir}: ${e.message}; retried at the next rescan`));
      });
      return watched;
    } catch (e) {
      this.onError(new Error(`could not watch ${dir}: ${(e as Error).message}; retried at the next rescan`));
      return null;
    }
  }

  private forget(w: Watched): void {
    if (this.rootDir === w) this.rootDir = null;
    if (this.dataDir === w) this.dataDir = null;
    if (this.requestsDir === w) this.requestsDir = null;
    if (this.recordDir === w) this.recordDir = null;
  }

  private letGo(w: Watched | null): null {
    w?.handle.close();
    return null;
  }

  private onRootEvent(name: string | null): void {
    if (name === null || name === '.agentsync.json') this.emit('config');
    // .agentsync/ created, removed or replaced; or the folder itself went (its own name is reported).
    if (name === null || name === '.agentsync' || name === path.basename(this.layout.root)) this.attachAll(true);
  }

  private onDataEvent(name: string | null): void {
    if (name === null) {
      for (const kind of INSIDE_DATA_DIR) this.emit(kind);
      this.attachAll(true);
      return;
    }
    const kind = Object.hasOwn(this.layout.watchedDataFiles, name) ? this.layout.watchedDataFiles[name] : undefined;
    if (kind) this.emit(kind);
    else if (name === 'requests') this.attachAll(true);
  }

  private onRecordEvent(name: string | null): void {
    const kind = name !== null && Object.hasOwn(this.layout.watchedDataFiles, name) ? this.layout.watchedDataFiles[name] : undefined;
    if (name === null) for (const k of ['store', 'state'] as const) this.emit(k);
    else if (kind === 'store' || kind === 'state') this.emit(kind);
  }

  private onRequestsEvent(name: string | null): void {
    if (name === null) return this.emit('request');
    if (name.startsWith('.') || name === 'rejected') return; // claims in .inflight/, temp files, rejected requests
    // A rename away (the drop zone claiming it) is not a new request; one that arrived is still there.
    if (fs.existsSync(path.join(this.layout.requestsDir, name))) this.emit('request');
  }

  private emit(kind: FolderFileKind): void {
    for (const l of [...this.listeners]) {
      try {
        l(kind);
      } catch (e) {
        this.onError(new Error(`a ${kind} listener failed: ${(e as Error).message}`));
      }
    }
  }
}
