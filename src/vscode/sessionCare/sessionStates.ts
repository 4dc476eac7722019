// The active sessions of each folder (.agentsync/state.json, written by startSession/endSession from any surface),
// with an event when a folder's state.json changes. Read on demand, and again only when the file's stat changed:
// every store write asks (hot files, reminders), and a burst of drop-zone requests must not re-read it each time.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { readStateFile } from '../../core/store/stateFile';
import { activeSessionsOf, type SessionRecord } from '../../core/requests/sessions/sessionState';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';

const DEBOUNCE_MS = 20;

export class SessionStates implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<FolderService>();
  /** A folder's state.json changed (or its store did: a session action through this window). */
  readonly onDidChange = this.emitter.event;
  private readonly pending = new Map<FolderService, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly cache = new Map<FolderService, { stamp: string; sessions: Map<string, SessionRecord> }>();

  constructor(private readonly services: FolderServices) {
    // state.json events come from each folder's one watcher (FolderService); none of its own.
    this.subscriptions = [
      services.onDidChangeState((s) => this.schedule(s)),
      services.onDidChange((s) => {
        if (s) this.schedule(s);
        else this.forgetRemoved();
      }),
    ];
  }

  sessionsOf(service: FolderService): ReadonlyMap<string, SessionRecord> {
    let stamp = 'missing';
    try {
      const st = fs.statSync(service.layout.stateFile);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      // no state.json: no sessions
    }
    const known = this.cache.get(service);
    if (known?.stamp === stamp) return known.sessions;
    const sessions = stamp === 'missing' ? new Map<string, SessionRecord>() : activeSessionsOf(readStateFile(service.layout.stateFile));
    this.cache.set(service, { stamp, sessions });
    return sessions;
  }

  /** `agent`'s active session in the folder, if any. */
  sessionOf(service: FolderService, agent: string): SessionRecord | undefined {
    return this.sessionsOf(service).get(agent);
  }

  private forgetRemoved(): void {
    const all = this.services.all();
    for (const s of [...this.cache.keys()]) if (!all.includes(s)) this.cache.delete(s);
  }

  private schedule(service: FolderService): void {
    if (this.pending.has(service)) return;
    this.pending.set(
      service,
      setTimeout(() => {
        this.pending.delete(service);
        this.emitter.fire(service);
      }, DEBOUNCE_MS),
    );
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    for (const t of this.pending.values()) clearTimeout(t);
    this.emitter.dispose();
  }
}
