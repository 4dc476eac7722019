// The drop zone (docs/contract.md §8): `.agentsync/request.json` → `result.json` (AgentSync 0.3) and every
// `.agentsync/requests/*.json` → `responses/<request_id>.json`, through the same dispatcher as every surface.
// The folder's watcher (passed in: one per folder, shared with the editor's other readers; see
// docs/architecture.md) triggers a scan; a periodic rescan catches what it missed and takes over claims of dead processors.
// Each scan claims every waiting request (rename into .inflight/), then dispatches them all at once, so the
// store applies them under one lock and one write. The response is written before the claim is removed:
// a processor killed in between leaves a claim that is answered again (idempotently) by whoever takes it over.
import * as fs from 'node:fs';
import { dropZoneCaller } from '../requests/requestSession';
import * as path from 'node:path';
import { isActionError } from '../domain/errors';
import { newUid } from '../domain/handoffIds';
import { MAX_REQUEST_BYTES, type RequestDispatcher } from '../requests/requestDispatcher';
import { ClaimAnswerer, type DropZoneAnswer, type DropZoneLogger } from './claimAnswerer';
import {
  claimFile,
  DropZonePaths,
  escapedBytes,
  isRequestName,
  listRequestDir,
  recoverOrphans,
  rejectEntry,
  type Claim,
} from './dropZoneClaims';
import { ACTIVE_CLAIMS } from './inflightName';
import { isTrackedClaim, trackedWaiting } from './trackedRequests';
import { Housekeeping } from './housekeeping';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import type { FolderChangeSource } from '../workspace/agentSyncFolderWatcher';

export type { DropZoneAnswer, DropZoneLogger };

export interface DropZoneOptions {
  /** Periodic rescan, which also takes over orphaned claims (default 2000 ms). */
  rescanMs?: number;
  /** How often expired leases are returned to the queue (expireLeases; default 30000 ms, 0 = never). */
  leaseSweepMs?: number;
  maxRequestBytes?: number;
  logger?: DropZoneLogger;
  /** The folder's watcher, whose `request` events trigger a scan; without one, only the periodic rescan answers. */
  changes?: FolderChangeSource;
  /**
   * The home's housekeeping (lease and timeout sweeps, audit prune; housekeeping.ts), one per home: by default this
   * processor runs its own; the drop zones of a clone's other worktrees (cloneDropZones.ts) pass null and share one.
   */
  housekeeping?: Housekeeping | null;
}

export interface DropZoneStats {
  answered: number;
  refused: number;
  rejected: number;
  recovered: number;
}

const silent: DropZoneLogger = { info: () => undefined, warn: () => undefined };

export class DropZoneProcessor {
  readonly paths: DropZonePaths;
  readonly stats: DropZoneStats = { answered: 0, refused: 0, rejected: 0, recovered: 0 };
  private readonly logger: DropZoneLogger;
  private readonly rescanMs: number;
  private readonly answerer: ClaimAnswerer;
  private readonly pending = new Set<Promise<void>>();
  private readonly listeners: ((a: DropZoneAnswer) => void)[] = [];
  private readonly changes: FolderChangeSource | undefined;
  private subscription: { dispose(): void } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly housekeeping: Housekeeping | null;
  private scheduled = false;
  private recoverDue = true;
  private running = false;
  private reportedProblem: string | null = null;

  constructor(
    readonly layout: WorkspaceLayout,
    private readonly dispatcher: RequestDispatcher,
    options: DropZoneOptions = {},
  ) {
    this.paths = new DropZonePaths(layout);
    this.logger = options.logger ?? silent;
    this.housekeeping =
      options.housekeeping === undefined ? new Housekeeping(dispatcher, this.logger, options.leaseSweepMs) : options.housekeeping;
    this.rescanMs = options.rescanMs ?? 2_000;
    this.changes = options.changes;
    this.answerer = new ClaimAnswerer(
      this.paths,
      dispatcher,
      options.maxRequestBytes ?? MAX_REQUEST_BYTES,
      this.logger,
      (outcome, answer) => {
        this.stats[outcome]++;
        this.emit(answer);
      },
      dropZoneCaller(layout.root, layout.stateFile),
    );
  }

  /** Called after each request is answered or rejected (the editor logs these). */
  onDidAnswer(listener: (a: DropZoneAnswer) => void): { dispose(): void } {
    this.listeners.push(listener);
    return { dispose: () => void this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1) };
  }

  /** Why the drop zone could not work at its last scan (e.g. requests/ is a symlink), or null when it could. */
  get problem(): string | null {
    return this.reportedProblem;
  }

  /** Processes what is there now (including orphaned claims) and waits until every answer is written. */
  async processOnce(): Promise<DropZoneStats> {
    this.housekeeping?.pruneAudit();
    this.scan(true);
    await this.drain();
    await this.housekeeping?.sweepTimeouts();
    return { ...this.stats };
  }

  /** Starts answering: the folder's watcher events, the periodic rescan and a first scan of what is waiting. */
  start(): Promise<void> {
    if (this.running) return Promise.resolve();
    this.running = true;
    this.subscription =
      this.changes?.onDidChange((kind) => {
        if (kind === 'request') this.trigger(false);
      }) ?? null;
    this.timer = setInterval(() => {
      this.changes?.ensure(); // e.g. requests/ re-created: watched again
      this.trigger(true);
      if (this.housekeeping) this.track(this.housekeeping.sweepTimeouts());
    }, this.rescanMs);
    this.housekeeping?.start();
    this.scan(true);
    // The scan created requests/ if it was missing: watch it now, not at the first rescan.
    this.changes?.ensure();
    return Promise.resolve();
  }

  /** Work that stop() waits for, like the answers. */
  private track(p: Promise<void>): void {
    const tracked: Promise<void> = p.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Stops watching and waits for the requests already taken to be answered. */
  async stop(): Promise<void> {
    this.running = false;
    this.subscription?.dispose();
    this.subscription = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.housekeeping?.stop();
    await this.drain();
  }

  private trigger(recover: boolean): void {
    if (recover) this.recoverDue = true;
    if (this.scheduled || !this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.running) this.scan(false);
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Claims everything waiting and starts answering it; synchronous up to the dispatch, so one scan is one batch. */
  private scan(recover: boolean): void {
    // Filled as requests are taken, so what was taken before an error is still answered.
    const claims: Claim[] = [];
    try {
      this.paths.ensure();
      const due = recover || this.recoverDue;
      this.recoverDue = this.claimAll(due, claims) ? false : due;
      this.reportedProblem = null;
    } catch (e) {
      this.report(e);
    }
    for (const claim of claims) {
      const p: Promise<void> = this.answerer
        .answer(claim)
        .catch((e) =>
          this.logger.warn(`drop zone: ${claim.original}: ${(e as Error).message}; it stays in ${this.paths.inflightDir} and is retried`),
        )
        .finally(() => {
          ACTIVE_CLAIMS.delete(claim.name);
          this.pending.delete(p);
        });
      this.pending.add(p);
    }
  }

  /** False when git was writing (trackedRequestFiles 'busy'): nothing was taken, the next scan tries again. */
  private claimAll(recover: boolean, claims: Claim[]): boolean {
    const { names, undecodable } = listRequestDir(this.layout.requestsDir);
    const queued = names.filter(isRequestName);
    const single = fs.existsSync(this.layout.requestFile);
    const tracked = trackedWaiting(this.layout, this.paths, single || queued.length > 0, recover);
    if (tracked === 'busy') return false;
    const take = (c: Claim | null) => c && claims.push(isTrackedClaim(c, tracked, this.layout, this.paths) ? { ...c, tracked: true } : c);
    if (single) take(this.claimSource(this.layout.requestFile, 's', 'request.json'));
    for (const name of queued) take(this.claimSource(path.join(this.layout.requestsDir, name), 'q', name));
    for (const raw of undecodable) if (isRequestName(raw.toString('utf8'))) this.rejectUndecodable(raw);
    if (recover) {
      const orphans = recoverOrphans(this.paths);
      this.stats.recovered += orphans.length;
      for (const o of orphans) this.logger.info(`drop zone: took over ${o.original} from a processor that stopped`);
      orphans.forEach(take);
    }
    return true;
  }

  private claimSource(source: string, kind: 'q' | 's', original: string): Claim | null {
    const c = claimFile(this.paths, source, kind, original);
    if (c !== 'too_long') return c;
    const moved = rejectEntry(
      this.paths,
      source,
      newUid(),
      original.slice(0, 60),
      `its name is too long to be processed (${original.length} characters); use a shorter name`,
    );
    this.stats.rejected++;
    this.emit({ requestFile: original, responseFile: null, response: null, rejected: moved });
    return null;
  }

  /** A request whose name is not valid UTF-8 cannot be claimed by name (nor echoed as request_file): moved aside, said why. */
  private rejectUndecodable(raw: Buffer): void {
    const shown = escapedBytes(raw);
    const source = Buffer.concat([Buffer.from(this.layout.requestsDir + path.sep), raw]);
    let moved: string;
    try {
      moved = rejectEntry(
        this.paths,
        source,
        newUid(),
        'name-not-utf8.json',
        `its name "${shown}" is not valid UTF-8, so it cannot be answered under its name; write it again under a UTF-8 name`,
      );
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // another processor moved it first
      throw e;
    }
    this.logger.warn(`drop zone: requests/${shown} moved to ${moved}: its name is not valid UTF-8`);
    this.stats.rejected++;
    this.emit({ requestFile: shown, responseFile: null, response: null, rejected: moved });
  }

  private emit(a: DropZoneAnswer): void {
    for (const l of this.listeners) {
      try {
        l(a);
      } catch {
        // a listener's failure is not the drop zone's
      }
    }
  }

  private report(e: unknown): void {
    const message = isActionError(e) ? e.message : `drop zone: ${(e as Error).message}`;
    if (message !== this.reportedProblem) this.logger.warn(message);
    this.reportedProblem = message;
  }
}
