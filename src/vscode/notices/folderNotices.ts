// The per-folder bookkeeping the editor's notifiers share (newWorkNotifier.ts, returnNotifier.ts): one core tracker
// per open folder, fed each store change of that folder, dropped when the folder closes. Which handoffs, and once
// each, is the tracker's rule (core/domain/newWorkNotices.ts, returnNotices.ts); what is shown is the notifier's.
import type * as vscode from 'vscode';
import type { Handoff } from '../../core/domain/handoffSchema';
import type { OnceNotices } from '../../core/domain/onceNotices';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';

export class FolderNotices implements vscode.Disposable {
  private readonly notices = new Map<FolderService, OnceNotices>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly services: FolderServices,
    private readonly me: () => string,
    private readonly newNotices: () => OnceNotices,
    /** What the tracker of `service` handed out (never empty). */
    private readonly announce: (service: FolderService, fresh: Handoff[]) => void,
  ) {
    this.subscription = services.onDidChange((s) => (s ? this.check(s) : this.checkAll()));
  }

  /** The first look at each folder only records the handoffs already there (called once the store may be read). */
  checkAll(): void {
    for (const s of [...this.notices.keys()]) if (!this.services.all().includes(s)) this.notices.delete(s);
    for (const s of this.services.all()) this.check(s);
  }

  private check(service: FolderService): void {
    if (!service.isInitialized()) return;
    let notices = this.notices.get(service);
    if (!notices) this.notices.set(service, (notices = this.newNotices()));
    const fresh = notices.take(service.view().handoffs, this.me());
    if (fresh.length > 0) this.announce(service, fresh);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
