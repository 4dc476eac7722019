// Multi-root: one FolderService per workspace folder, added and removed with the folders, and the
// one question every command asks first: which folder?
import * as vscode from 'vscode';
import { FolderService } from './folderService';

export class FolderServices implements vscode.Disposable {
  private readonly services = new Map<string, FolderService>();
  private readonly subscriptions = new Map<string, vscode.Disposable>();
  private readonly emitter = new vscode.EventEmitter<FolderService | undefined>();
  /** A folder's data changed (its service), or folders were added or removed (undefined). */
  readonly onDidChange = this.emitter.event;
  private readonly stateEmitter = new vscode.EventEmitter<FolderService>();
  /** A folder's .agentsync/state.json may have changed (from its one watcher; not debounced). */
  readonly onDidChangeState = this.stateEmitter.event;
  private readonly foldersListener: vscode.Disposable;

  constructor(private readonly create: (folder: vscode.WorkspaceFolder) => FolderService) {
    for (const f of vscode.workspace.workspaceFolders ?? []) this.add(f);
    this.foldersListener = vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const f of e.removed) this.remove(f);
      for (const f of e.added) this.add(f);
      this.emitter.fire(undefined);
    });
  }

  all(): FolderService[] {
    return [...this.services.values()];
  }

  get(folder: vscode.WorkspaceFolder | vscode.Uri | string): FolderService | undefined {
    const key =
      typeof folder === 'string' ? vscode.Uri.file(folder).toString() : 'uri' in folder ? folder.uri.toString() : folder.toString();
    return this.services.get(key) ?? this.all().find((s) => s.name === folder || s.layout.root === folder);
  }

  /**
   * The folder a command acts on: the only one, or the one the user picks. Undefined when cancelled or
   * when no folder qualifies (then the user has been told what to do).
   */
  async pick(placeHolder: string, filter: (s: FolderService) => boolean = (s) => s.isInitialized()): Promise<FolderService | undefined> {
    const candidates = this.all().filter(filter);
    if (candidates.length === 0) {
      const why = this.services.size === 0 ? 'Open a folder first.' : 'Run "AgentSync: Initialize Workspace" first.';
      void vscode.window.showWarningMessage(`AgentSync: no workspace folder for this. ${why}`);
      return undefined;
    }
    if (candidates.length === 1) return candidates[0];
    const picked = await vscode.window.showQuickPick(
      candidates.map((s) => ({ label: s.name, description: s.layout.root, service: s })),
      { placeHolder, ignoreFocusOut: true },
    );
    return picked?.service;
  }

  private add(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    if (folder.uri.scheme !== 'file' || this.services.has(key)) return; // the core needs a local file system
    const service = this.create(folder);
    this.services.set(key, service);
    this.subscriptions.set(
      key,
      vscode.Disposable.from(
        service.onDidChange((s) => this.emitter.fire(s)),
        service.onDidChangeState((s) => this.stateEmitter.fire(s)),
      ),
    );
  }

  private remove(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    this.subscriptions.get(key)?.dispose();
    this.services.get(key)?.dispose();
    this.subscriptions.delete(key);
    this.services.delete(key);
  }

  dispose(): void {
    this.foldersListener.dispose();
    for (const key of [...this.services.keys()]) this.remove({ uri: vscode.Uri.parse(key) } as vscode.WorkspaceFolder);
    this.emitter.dispose();
    this.stateEmitter.dispose();
  }
}
