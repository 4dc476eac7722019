// The status-bar badge: `$(warning) N` stale open handoffs assigned to me, hidden at zero; click lists them.
// Staleness depends on the clock as well as the store, so it is re-counted every minute too.
import * as vscode from 'vscode';
import { staleAssignedTo } from '../../core/domain/handoffAttention';
import type { Handoff } from '../../core/domain/handoffSchema';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import type { CommandId } from '../manifest/commandIds';

export const SHOW_STALE_COMMAND: CommandId = 'agentsync.showStaleHandoffs';

export interface StaleEntry {
  service: FolderService;
  handoff: Handoff;
  reason: string;
}

export interface BadgeState {
  count: number;
  text: string;
  visible: boolean;
  tooltip: string;
}

export class StaleBadge implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;
  private readonly timer: NodeJS.Timeout;
  private entries: StaleEntry[] = [];
  private current: BadgeState = { count: 0, text: '', visible: false, tooltip: '' };

  constructor(
    private readonly services: FolderServices,
    private readonly me: () => string,
  ) {
    this.item = vscode.window.createStatusBarItem('agentsync.staleBadge', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'AgentSync Stale Handoffs';
    this.item.command = SHOW_STALE_COMMAND;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.subscription = services.onDidChange(() => this.update());
    this.timer = setInterval(() => this.update(), 60_000);
  }

  /** Re-counts from every folder's (cached) view and shows or hides the item. */
  update(now = new Date()): BadgeState {
    const me = this.me();
    const entries: StaleEntry[] = [];
    for (const service of this.services.all()) {
      if (!service.isInitialized()) continue;
      const view = service.view();
      for (const e of staleAssignedTo(view.handoffs, me, view.config, now)) entries.push({ service, ...e });
    }
    this.entries = entries;
    const count = entries.length;
    const tooltip = count ? `AgentSync: ${count} stale open handoff${count === 1 ? '' : 's'} assigned to ${me}. Click to list them.` : '';
    this.current = { count, text: count ? `$(warning) ${count}` : '', visible: count > 0, tooltip };
    this.item.text = this.current.text;
    this.item.tooltip = tooltip;
    if (count) this.item.show();
    else this.item.hide();
    return this.current;
  }

  get state(): BadgeState {
    return this.current;
  }

  get stale(): readonly StaleEntry[] {
    return this.entries;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.subscription.dispose();
    this.item.dispose();
  }
}
