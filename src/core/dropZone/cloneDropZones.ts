// The drop zone where the agent is (docs/contract.md §14 item 3): a watcher answers the requests of every worktree
// its clone lists, read from disk again at each rescan (so a worktree added while it runs is answered, one removed is
// let go), each in the worktree it was written in: one processor per worktree's workspace folder, all through the
// one dispatcher of the clone's record. Several watchers of one clone answer each request once: a processor takes a
// request by renaming it (dropZoneClaims.ts). The home's housekeeping runs once here, not per drop zone.
import * as path from 'node:path';
import { cloneWorktrees, excludeInClone } from '../git/cloneWorktrees';
import { WorkspaceLayout } from '../workspace/workspaceLayout';
import { DropZoneProcessor, type DropZoneAnswer, type DropZoneLogger, type DropZoneOptions, type DropZoneStats } from './dropZoneProcessor';
import { Housekeeping } from './housekeeping';
import type { RequestDispatcher } from '../requests/requestDispatcher';
import type { FolderChangeSource } from '../workspace/agentSyncFolderWatcher';

/** A folder's watcher this drop zone started, closed with it. */
export type OwnedChanges = FolderChangeSource & { close(): void };

export interface CloneDropZoneOptions extends DropZoneOptions {
  /**
   * A watcher for another worktree's folder, so that its requests are answered as they arrive (without one, only
   * the periodic rescan finds them: up to rescanMs later). Closed when that worktree goes or the drop zone stops.
   */
  changesFor?: (layout: WorkspaceLayout) => OwnedChanges;
}

/** The drop zone's runtime paths, relative to a workspace folder (what an answer writes in a worktree). */
const RUNTIME = ['.agentsync/request.json', '.agentsync/result.json', '.agentsync/requests/', '.agentsync/responses/'];

export class CloneDropZones {
  private readonly own: DropZoneProcessor;
  private readonly others = new Map<string, { processor: DropZoneProcessor; changes?: OwnedChanges }>();
  private readonly housekeeping: Housekeeping;
  private readonly listeners: ((a: DropZoneAnswer) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private readonly logger: DropZoneLogger;

  constructor(
    readonly layout: WorkspaceLayout,
    private readonly dispatcher: RequestDispatcher,
    private readonly options: CloneDropZoneOptions = {},
  ) {
    this.logger = options.logger ?? { info: () => undefined, warn: () => undefined };
    this.housekeeping = new Housekeeping(dispatcher, this.logger, options.leaseSweepMs);
    this.own = this.processor(layout, options);
  }

  onDidAnswer(listener: (a: DropZoneAnswer) => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => void this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1) };
  }

  /** Why this folder's own drop zone could not work at its last scan, or null. */
  get problem(): string | null {
    return this.own.problem;
  }

  get stats(): DropZoneStats {
    const all = this.all().map((p) => p.stats);
    return {
      answered: all.reduce((n, s) => n + s.answered, 0),
      refused: all.reduce((n, s) => n + s.refused, 0),
      rejected: all.reduce((n, s) => n + s.rejected, 0),
      recovered: all.reduce((n, s) => n + s.recovered, 0),
    };
  }

  /** What is waiting in every worktree now, answered; then the home's housekeeping once. */
  async processOnce(): Promise<DropZoneStats> {
    this.housekeeping.pruneAudit();
    this.refresh();
    await Promise.all(this.all().map((p) => p.processOnce()));
    await this.housekeeping.sweepTimeouts();
    this.housekeeping.noticeGoneWorktrees();
    return this.stats;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.refresh();
    await Promise.all(this.all().map((p) => p.start()));
    this.housekeeping.start();
    this.housekeeping.noticeGoneWorktrees();
    this.timer = setInterval(() => {
      this.refresh();
      void this.housekeeping.sweepTimeouts();
    }, this.options.rescanMs ?? 2_000);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.housekeeping.stop();
    await Promise.all(this.all().map((p) => p.stop()));
    for (const other of this.others.values()) other.changes?.close();
  }

  private all(): DropZoneProcessor[] {
    return [this.own, ...[...this.others.values()].map((o) => o.processor)];
  }

  private processor(layout: WorkspaceLayout, options: DropZoneOptions): DropZoneProcessor {
    const p = new DropZoneProcessor(layout, this.dispatcher, { ...options, housekeeping: null });
    p.onDidAnswer((a) => this.listeners.forEach((l) => l(a)));
    return p;
  }

  /** The clone's worktrees as listed now: a processor for each new one, none kept for one that is gone. */
  private refresh(): void {
    const placement = this.layout.placement;
    if (!placement) return;
    const offset = placement.inRepository;
    try {
      const prefix = offset ? `/${offset}/` : '/';
      excludeInClone(
        placement.location,
        RUNTIME.map((p) => prefix + p),
      );
    } catch (e) {
      this.logger.warn(`could not list the drop zone in info/exclude: ${(e as Error).message}`);
    }
    const seen = new Set<string>();
    for (const wt of cloneWorktrees(placement.location)) {
      const folder = offset ? path.join(wt.root, ...offset.split('/')) : wt.root;
      if (wt.root === placement.location.worktreeRoot) continue; // this folder's own drop zone
      seen.add(folder);
      if (this.others.has(folder)) continue;
      const layout = new WorkspaceLayout(folder);
      const changes = this.running ? this.options.changesFor?.(layout) : undefined;
      const p = this.processor(layout, { ...this.options, changes });
      this.others.set(folder, { processor: p, changes });
      if (this.running) void p.start();
    }
    for (const [folder, o] of this.others) {
      if (seen.has(folder)) continue;
      this.others.delete(folder);
      void o.processor.stop().finally(() => o.changes?.close());
    }
  }
}
