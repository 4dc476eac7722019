// VS Code offers `agentsync mcp` for each initialized workspace folder with no hand configuration (docs/contract.md §10a;
// docs/agentsync-documentation.md "MCP in VS Code"): a stdio server definition that runs this extension's own
// bin/agentsync.js with the editor's Node. Only in a trusted workspace: the server acts on the folder's store.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FolderServices } from '../folders/folderServices';
import type { TrustState } from '../folders/trustState';

export const MCP_PROVIDER_ID = 'agentsync.mcpServers';

/** The desktop editor's process.execPath is Electron: this makes it run the script as plain Node (ignored by Node). */
const NODE_ENV = { ELECTRON_RUN_AS_NODE: '1' };

export class AgentSyncMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: FolderServices,
    private readonly trust: TrustState,
    private readonly extensionPath: string,
    private readonly version: string,
  ) {
    // Folders come and go, get initialized, or become trusted: VS Code asks again.
    this.subscriptions = [
      services.onDidChange(() => this.fireIfFoldersChanged()),
      trust.onDidChange(() => this.emitter.fire()),
      this.emitter,
    ];
  }

  private offered = '';

  private fireIfFoldersChanged(): void {
    const now = this.services
      .all()
      .filter((s) => s.isInitialized())
      .map((s) => s.layout.root)
      .join('\n');
    if (now === this.offered) return;
    this.offered = now;
    this.emitter.fire();
  }

  /** Tell VS Code to ask again (e.g. after Initialize Workspace). */
  refresh(): void {
    this.emitter.fire();
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    if (!this.trust.trusted) return [];
    const cli = path.join(this.extensionPath, 'bin', 'agentsync.js');
    const multi = this.services.all().length > 1;
    const ready = this.services.all().filter((s) => s.isInitialized());
    this.offered = ready.map((s) => s.layout.root).join('\n');
    return ready.map((s) => {
      const def = new vscode.McpStdioServerDefinition(
        multi ? `AgentSync (${s.name})` : 'AgentSync',
        process.execPath,
        [cli, 'mcp', '--dir', s.layout.root],
        NODE_ENV,
        this.version,
      );
      def.cwd = vscode.Uri.file(s.layout.root);
      return def;
    });
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}

export function registerMcpProvider(provider: AgentSyncMcpProvider): vscode.Disposable[] {
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') return [provider];
  return [provider, vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider)];
}
