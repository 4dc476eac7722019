// Hosts the drop zone (the same core as `agentsync watch`, core/dropZone/cloneDropZones.ts) for every folder where it
// may run: trusted, initialized, and agentsync.dropZone.enabled. It answers the requests of every worktree of the
// folder's clone, each in its own worktree (docs/contract.md §14 item 3). Two windows, or a window and `agentsync
// watch`, may answer one clone; the core's rename-to-inflight claim of each request file makes sure only one answers.
import * as vscode from 'vscode';
import { CloneDropZones } from '../../core/dropZone/cloneDropZones';
import type { FolderService } from './folderService';
import type { FolderServices } from './folderServices';
import type { TrustState } from './trustState';

/** The part of the core's drop-zone processor the editor uses. */
export interface DropZoneRunner {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

export type DropZoneFactory = (service: FolderService, log: vscode.LogOutputChannel) => DropZoneRunner;

/**
 * The core's drop zones of the clone on the folder's own dispatcher (its writes refresh the tree at once); the folder's
 * own drop zone listens to its one watcher, the other worktrees' are rescanned.
 */
export const hostDropZone: DropZoneFactory = (service, log) => {
  const tag = `[${service.name}] drop zone:`;
  const processor = new CloneDropZones(service.layout, service.dispatcher, {
    changes: service.changes,
    logger: { info: (m) => log.info(`${tag} ${m}`), warn: (m) => log.warn(`${tag} ${m}`) },
  });
  processor.onDidAnswer((a) => {
    if (a.rejected) log.warn(`${tag} ${a.requestFile} moved to requests/rejected/: ${a.rejected}`);
    else log.debug(`${tag} ${a.requestFile} → ${a.response?.ok ? 'ok' : a.response?.reason} (${a.responseFile})`);
  });
  return processor;
};

export type DropZoneState = { running: true } | { running: false; why: string };

export class DropZoneHosts implements vscode.Disposable {
  private readonly runners = new Map<FolderService, DropZoneRunner>();
  /** Starts and stops under way: stopAll (deactivate) waits for them too, so none is left floating. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly services: FolderServices,
    private readonly trust: TrustState,
    private readonly log: vscode.LogOutputChannel,
    private readonly factory: DropZoneFactory | null,
  ) {}

  /** The running processor of a folder (the integration suite reads its stats). */
  runnerOf(service: FolderService): DropZoneRunner | undefined {
    return this.runners.get(service);
  }

  /** Why the drop zone of a folder is off, or that it runs. */
  stateOf(service: FolderService): DropZoneState {
    if (this.runners.has(service)) return { running: true };
    return { running: false, why: this.reasonOff(service) ?? 'starting' };
  }

  private reasonOff(service: FolderService): string | null {
    if (!this.trust.trusted) return 'Restricted Mode (the folder is not trusted)';
    if (!vscode.workspace.getConfiguration('agentsync', service.folder.uri).get<boolean>('dropZone.enabled', true))
      return 'turned off by the setting agentsync.dropZone.enabled';
    if (!service.isInitialized()) return 'the folder is not an AgentSync workspace yet';
    if (!this.factory) return 'this build has no drop-zone processor';
    return null;
  }

  /** Starts or stops each folder's drop zone to match trust, settings and initialization. */
  sync(): void {
    const live = new Set(this.services.all());
    for (const [service, runner] of [...this.runners]) {
      const why = live.has(service) ? this.reasonOff(service) : 'the folder was removed';
      if (why) this.track(this.stop(service, runner, why));
    }
    for (const service of live) {
      if (this.runners.has(service) || this.reasonOff(service)) continue;
      const runner = this.factory!(service, this.log);
      this.runners.set(service, runner);
      this.track(
        Promise.resolve()
          .then(() => runner.start())
          .then(
            () => {
              if (this.runners.get(service) === runner)
                this.log.info(`[${service.name}] drop zone on: answering .agentsync/request.json and .agentsync/requests/`);
            },
            (e) => {
              if (this.runners.get(service) === runner) this.runners.delete(service);
              this.log.error(
                `[${service.name}] the drop zone could not start: ${(e as Error).message}. Agents' requests are not answered in this window; run ` +
                  `\`agentsync watch\` in a terminal instead.`,
              );
            },
          ),
      );
    }
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private stop(service: FolderService, runner: DropZoneRunner, why: string): Promise<void> {
    this.runners.delete(service);
    return Promise.resolve()
      .then(() => runner.stop())
      .then(
        () => this.log.info(`[${service.name}] drop zone off: ${why}`),
        (e) => this.log.warn(`[${service.name}] stopping the drop zone failed: ${(e as Error).message}`),
      );
  }

  /** Stops every drop zone; resolves once the requests already taken are answered (deactivate waits for it). */
  stopAll(why: string): Promise<void> {
    const stops = [...this.runners].map(([service, runner]) => this.stop(service, runner, why));
    return Promise.all([...stops, ...this.inFlight]).then(() => undefined);
  }

  dispose(): void {
    void this.stopAll('the extension stopped');
  }
}
