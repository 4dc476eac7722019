// notify_on_return in this window (docs/agentsync-documentation.md, "Pass-over delegation"): when work comes back to
// this window's agent and its stored policy asks for it, an information message with Open (the history document).
// Which returns, and once each, is the core's rule (returnNotices.ts, fed per folder by folderNotices.ts); this file
// only shows them.
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import type { Handoff } from '../../core/domain/handoffSchema';
import { ReturnNotices } from '../../core/domain/returnNotices';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import type { CommandId } from '../manifest/commandIds';
import { FolderNotices } from './folderNotices';

export const OPEN_RETURN = 'Open';

export class ReturnNotifier implements vscode.Disposable {
  private readonly folders: FolderNotices;

  constructor(
    services: FolderServices,
    private readonly me: () => string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.folders = new FolderNotices(
      services,
      me,
      () => new ReturnNotices(),
      (s, fresh) => {
        for (const h of fresh) void this.show(s, h);
      },
    );
  }

  /** The first look at each folder only records the returns already there (called once the store may be read). */
  checkAll(): void {
    this.folders.checkAll();
  }

  private async show(service: FolderService, h: Handoff): Promise<void> {
    const what = (h.result?.context_summary || h.summary).split('\n')[0].slice(0, 200);
    this.log.info(`[${service.name}] ${h.handoff_id} came back to ${this.me()} from ${h.from_agent} (notify_on_return)`);
    const choice = await vscode.window.showInformationMessage(
      `AgentSync: work came back to you from ${displayAgent(h.from_agent)} as ${h.handoff_id}: ${what}`,
      OPEN_RETURN,
    );
    if (choice === OPEN_RETURN)
      await vscode.commands.executeCommand('agentsync.showHistory' satisfies CommandId, {
        handoffId: h.handoff_id,
        folder: service.layout.root,
      });
  }

  dispose(): void {
    this.folders.dispose();
  }
}
