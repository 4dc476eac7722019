// New work for this window's agent, announced in the editor (docs/agentsync-documentation.md, "New work
// notifications"): a notification naming the agent and the handoff, with Show (the handoff in the Handoffs tree).
// Which handoffs, and once each, is the core's rule (newWorkNotices.ts, fed per folder by folderNotices.ts); at most
// one notification every PACE_MS (a burst is one notification); the setting agentsync.notifications.newWork turns it
// off.
import * as vscode from 'vscode';
import type { Handoff } from '../../core/domain/handoffSchema';
import { NewWorkNotices } from '../../core/domain/newWorkNotices';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import { FolderNotices } from './folderNotices';
import { NotificationPacer } from './notificationPacer';
import { newWorkMessage } from './newWorkMessage';

export const NEW_WORK_SETTING = 'agentsync.notifications.newWork';
export const SHOW_NEW_WORK = 'Show';
const PACE_MS = 10_000;

interface Arrival {
  service: FolderService;
  handoff: Handoff;
}

export class NewWorkNotifier implements vscode.Disposable {
  private readonly folders: FolderNotices;
  private readonly pacer: NotificationPacer<Arrival>;
  /** What was announced, newest last (the integration suite reads it through the test seam). */
  readonly shown: string[] = [];

  constructor(
    services: FolderServices,
    private readonly me: () => string,
    private readonly show: (service: FolderService, handoffId: string) => Promise<unknown>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.pacer = new NotificationPacer<Arrival>(PACE_MS, (items) => void this.announce(items));
    this.folders = new FolderNotices(
      services,
      me,
      () => new NewWorkNotices(),
      (s, fresh) => this.arrived(s, fresh),
    );
  }

  /** The first look at each folder only records the handoffs already there (called once the store may be read). */
  checkAll(): void {
    this.folders.checkAll();
  }

  private arrived(service: FolderService, fresh: Handoff[]): void {
    for (const h of fresh) this.log.info(`[${service.name}] new work for ${this.me()}: ${h.handoff_id} from ${h.from_agent}`);
    if (!vscode.workspace.getConfiguration().get<boolean>(NEW_WORK_SETTING, true)) return;
    this.pacer.add(fresh.map((handoff) => ({ service, handoff })));
  }

  private async announce(arrivals: Arrival[]): Promise<void> {
    const text = newWorkMessage(arrivals);
    this.shown.push(text);
    this.log.info(`notified: ${text}`);
    const choice = await vscode.window.showInformationMessage(text, SHOW_NEW_WORK);
    if (choice === SHOW_NEW_WORK) await this.show(arrivals[0].service, arrivals[0].handoff.handoff_id);
  }

  dispose(): void {
    this.folders.dispose();
    this.pacer.dispose();
  }
}
