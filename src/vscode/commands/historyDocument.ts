// Show History (docs/agentsync-documentation.md, "Commands"): a read-only virtual document, scheme agentsync-history,
// with a handoff's chain, report, state_history and audit lines, rendered by the core (handoffHistoryText.ts). An open
// document follows the store: it is re-rendered when its folder changes.
import * as vscode from 'vscode';
import { renderHandoffHistory } from '../../core/store/handoffHistoryText';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import type { CommandDeps } from './commandDeps';
import { resolveHandoff } from './handoffTarget';

export const HISTORY_SCHEME = 'agentsync-history';

/** `agentsync-history:/HO-20261123-001.md?folder=<root>`: the `.md` makes VS Code show it as Markdown. */
export function historyUri(service: FolderService, handoffId: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: HISTORY_SCHEME,
    path: `/${handoffId}.md`,
    query: new URLSearchParams({ folder: service.layout.root }).toString(),
  });
}

export class HandoffHistoryProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: FolderServices) {
    this.subscription = services.onDidChange((changed) => {
      for (const doc of vscode.workspace.textDocuments) {
        if (doc.uri.scheme !== HISTORY_SCHEME) continue;
        if (!changed || this.serviceOf(doc.uri) === changed) this.emitter.fire(doc.uri);
      }
    });
  }

  private serviceOf(uri: vscode.Uri): FolderService | undefined {
    const folder = new URLSearchParams(uri.query).get('folder');
    return folder ? this.services.get(folder) : this.services.all()[0];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = uri.path.replace(/^\//, '').replace(/\.md$/, '');
    const service = this.serviceOf(uri);
    const h = service?.find(id) ?? service?.store.findArchived(id);
    if (!service || !h) {
      return `# ${id}\n\nThis handoff is in neither .agentsync/handoffs.json nor .agentsync/archive/. "AgentSync: List Handoffs" shows the ones there are.\n`;
    }
    return renderHandoffHistory(h, service.view().handoffs, service.store.auditFor(h));
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

export async function showHistory(deps: CommandDeps, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'show the history of', () => true, deps.me());
  if (!t) return undefined;
  const doc = await vscode.workspace.openTextDocument(historyUri(t.service, t.handoff.handoff_id));
  return vscode.window.showTextDocument(doc, { preview: true });
}

export function registerHistoryDocument(deps: CommandDeps): vscode.Disposable[] {
  const provider = new HandoffHistoryProvider(deps.services);
  return [provider, vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, provider)];
}
