// The hot files of every folder for this window's agent (the rule is the core's: core/domain/hotFiles.ts), kept current by
// events only: a store change (any surface), a state.json change (sessions), the agent id changing, and the one
// moment a lease behind a hot file runs out. Nothing polls. Listeners get the URIs whose holders changed.
import { worktreeRelative } from '../../core/git/worktreePaths';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { canonicalRelativePath, hotFilesFor, nextHotFileChange, type HotFileHolder } from '../../core/domain/hotFiles';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import type { SessionStates } from '../sessionCare/sessionStates';

export interface HotFileHit {
  service: FolderService;
  /** Workspace-relative, canonical. */
  path: string;
  holders: HotFileHolder[];
}

/** setTimeout's largest delay; a later lease expiry is re-checked when this fires. */
const MAX_DELAY_MS = 2_147_000_000;

export class HotFileIndex implements vscode.Disposable {
  private readonly byFolder = new Map<FolderService, Map<string, HotFileHolder[]>>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri[]>();
  /** URIs whose hot state (or holders) changed. */
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];
  private leaseTimer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(
    private readonly services: FolderServices,
    private readonly states: SessionStates,
    private readonly me: () => string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions = [
      services.onDidChange((s) => (s ? this.update(s) : this.updateAll())),
      states.onDidChange((s) => this.update(s)),
      this.emitter,
    ];
  }

  /** First computation, after activation (activation reads nothing). */
  start(): void {
    this.started = true;
    this.updateAll();
  }

  /** The agent id changed: everything may differ. */
  updateAll(): void {
    if (!this.started) return;
    for (const s of [...this.byFolder.keys()]) if (!this.services.all().includes(s)) this.replace(s, new Map());
    for (const s of this.services.all()) this.update(s);
  }

  /** Who holds `uri`, or undefined when it is not hot (or not in an AgentSync folder). */
  lookup(uri: vscode.Uri): HotFileHit | undefined {
    if (uri.scheme !== 'file') return undefined;
    for (const [service, hot] of this.byFolder) {
      if (hot.size === 0) continue;
      const rel = path.relative(service.layout.root, uri.fsPath);
      const plain = !rel || rel.startsWith('..') || path.isAbsolute(rel) ? null : canonicalRelativePath(rel);
      const holders = plain === null ? undefined : hot.get(plain);
      if (holders) return { service, path: plain!, holders };
      // The same file in another worktree of the clone, or in a worktree nested in this one (docs/contract.md §14).
      const [other] = worktreeRelative(service.layout.root, service.layout.root, [uri.fsPath]);
      const key = other === undefined ? null : canonicalRelativePath(other);
      const found = key === null || key === plain ? undefined : hot.get(key);
      if (found) return { service, path: key!, holders: found };
    }
    return undefined;
  }

  private update(service: FolderService): void {
    if (!this.started) return;
    let next = new Map<string, HotFileHolder[]>();
    try {
      const view = service.view();
      if (view.initialized && this.services.all().includes(service))
        next = hotFilesFor(this.me(), view.handoffs, this.states.sessionsOf(service).values(), new Date());
    } catch (e) {
      this.log.warn(`[${service.name}] hot files not updated: ${(e as Error).message}`);
      return;
    }
    this.replace(service, next);
    this.scheduleLeaseCheck();
  }

  private replace(service: FolderService, next: Map<string, HotFileHolder[]>): void {
    const prev = this.byFolder.get(service) ?? new Map<string, HotFileHolder[]>();
    if (next.size) this.byFolder.set(service, next);
    else this.byFolder.delete(service);
    const changed: vscode.Uri[] = [];
    for (const key of new Set([...prev.keys(), ...next.keys()])) {
      if (JSON.stringify(prev.get(key)) !== JSON.stringify(next.get(key)))
        changed.push(vscode.Uri.joinPath(service.folder.uri, ...key.split('/')));
    }
    if (changed.length) this.emitter.fire(changed);
  }

  /** Recomputes when the earliest lease behind a hot file runs out: time alone changes the answer then. */
  private scheduleLeaseCheck(): void {
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    this.leaseTimer = undefined;
    const now = new Date();
    let next: number | null = null;
    for (const s of this.byFolder.keys()) {
      const at = nextHotFileChange(s.view().handoffs, this.me(), now)?.getTime() ?? null;
      if (at !== null && (next === null || at < next)) next = at;
    }
    if (next === null) return;
    this.leaseTimer = setTimeout(() => this.updateAll(), Math.min(MAX_DELAY_MS, next - now.getTime() + 50));
  }

  dispose(): void {
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    for (const d of this.subscriptions) d.dispose();
  }
}
