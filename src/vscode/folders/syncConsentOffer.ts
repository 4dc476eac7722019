// The editor's way to the consent `agentsync sync --enable` records (docs/contract.md §13): a committed `sync` section
// chooses where this machine pushes only once the local user agreed. When the window's background sync is refused
// `sync_not_consented`, it asks once per remote and ref; "Allow" (a local user's click) records the same consent.
import * as vscode from 'vscode';
import type { BackgroundSyncStatus } from '../../core/store/backgroundSync';
import { grantSyncConsent } from '../../core/workspace/syncConsent';

export const ALLOW_SYNC = 'Allow';
export const REVIEW_CONFIG = 'Review .agentsync.json';

export class SyncConsentOffer {
  private readonly asked = new Set<string>();

  constructor(
    private readonly root: string,
    /** The `.agentsync.json` that holds the section (the main worktree's, docs/contract.md §14). */
    private readonly configFile: () => string,
    private readonly folderName: string,
    private readonly log: vscode.LogOutputChannel,
    /** Runs after the user allowed: the background sync starts over, now consented. */
    private readonly onAllowed: () => void,
  ) {}

  /** Asks when `status` is the refusal for want of consent, once per remote and ref for this window. */
  offer(status: BackgroundSyncStatus | null): void {
    if (status?.reason !== 'sync_not_consented') return;
    const { remote, ref } = status;
    const key = `${remote}\n${ref}`;
    if (this.asked.has(key)) return;
    this.asked.add(key);
    void this.ask(remote, ref);
  }

  private async ask(remote: string, ref: string): Promise<void> {
    const choice = await vscode.window.showWarningMessage(
      `AgentSync: ${this.configFile()} turns sync on for ${this.folderName}: writes would be pushed to ${ref} on the git remote ` +
        `"${remote}" of this clone. The file comes with the repository; allow it on this machine (like \`agentsync sync --enable\`)?`,
      ALLOW_SYNC,
      REVIEW_CONFIG,
    );
    if (choice === ALLOW_SYNC) {
      grantSyncConsent(this.root, remote, ref);
      this.log.info(`[${this.folderName}] sync to ${remote} ${ref} allowed on this machine`);
      this.onAllowed();
    } else if (choice === REVIEW_CONFIG) {
      this.asked.delete(`${remote}\n${ref}`); // reviewed, it may be allowed at the next refusal
      await vscode.window.showTextDocument(vscode.Uri.file(this.configFile()));
    }
  }
}
