// Composition root: wires the per-folder services, the Handoffs tree, the dashboard, the stale badge, the drop zone
// hosts and the commands, and owns every disposable. Activation reads nothing from disk; the first view or badge
// update (deferred to after activation) reads the store.
import * as vscode from 'vscode';
import { readAgentIdentity, type AgentIdentity } from './vscode/agentIdentity';
import { registerCommand } from './vscode/commandRunner';
import { DASHBOARD_VIEW_ID, DashboardView } from './vscode/dashboard/dashboardView';
import { DropZoneHosts, hostDropZone } from './vscode/dropZoneHost';
import { FolderService } from './vscode/folderService';
import { FolderServices } from './vscode/folderServices';
import { registerHandoffCommands, type CommandDeps } from './vscode/handoffCommands';
import { addHandoffNote } from './vscode/handoffNoteFlow';
import { HandoffTreeProvider } from './vscode/handoffTreeProvider';
import { registerHistoryDocument } from './vscode/historyDocument';
import { registerLanguageModelTools } from './vscode/languageModelTools';
import { AgentSyncMcpProvider, registerMcpProvider } from './vscode/mcpServerProvider';
import { ReturnNotifier } from './vscode/returnNotifier';
import { registerSessionCommands } from './vscode/sessionCommands';
import { StaleBadge } from './vscode/staleBadge';
import { testSeam } from './vscode/testSeam';
import { treeProbe, type TreeProbe } from './vscode/treeProbe';
import { TrustState } from './vscode/trustState';
import { registerWorkspaceCommands } from './vscode/workspaceCommands';

/** The integration suite's handles on the running extension; exported only to the suite (see vscode/testSeam.ts). */
export interface AgentSyncApi {
  services: FolderServices;
  tree: HandoffTreeProvider;
  treeView: vscode.TreeView<unknown>;
  dashboard: DashboardView;
  badge: StaleBadge;
  trust: TrustState;
  dropZones: DropZoneHosts;
  /** What VS Code asks for `agentsync mcp` server definitions. */
  mcp: AgentSyncMcpProvider;
  identity(): AgentIdentity;
  /** Milliseconds spent in activate(). */
  activationMs: number;
  /** A separate Handoffs tree over any folder (the scale test's large store); the caller disposes it. */
  treeProbe(root: string, me: string): TreeProbe;
}

let hosts: DropZoneHosts | undefined;

export function activate(context: vscode.ExtensionContext): AgentSyncApi | undefined {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('AgentSync', { log: true });
  const trust = new TrustState();
  let identity = readAgentIdentity();
  const me = () => identity.id;
  const services = new FolderServices((folder) => new FolderService(folder, log));
  const deps: CommandDeps = { services, log, me };

  const tree = new HandoffTreeProvider(services, () => ({
    me: identity.id,
    identityProblem: identity.problem,
    trusted: trust.trusted,
    now: new Date(),
  }));
  const treeView = vscode.window.createTreeView('agentsync.handoffs', { treeDataProvider: tree, showCollapseAll: true });
  const dashboard = new DashboardView(
    deps,
    () => ({ me: identity.id, identityProblem: identity.problem, trusted: trust.trusted }),
    vscode.Uri.joinPath(context.extensionUri, 'media'),
  );
  const badge = new StaleBadge(services, me);
  const returns = new ReturnNotifier(services, me, log);
  const dropZones = new DropZoneHosts(services, trust, log, hostDropZone);
  hosts = dropZones;
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0');
  const mcp = new AgentSyncMcpProvider(services, trust, context.extensionPath, version);

  let initialized: boolean | undefined;
  const updateContext = () => {
    const now = services.all().some((s) => s.isInitialized());
    if (now !== initialized) void vscode.commands.executeCommand('setContext', 'agentsync.initialized', (initialized = now));
  };

  context.subscriptions.push(
    log,
    trust,
    services,
    tree,
    treeView,
    dashboard,
    vscode.window.registerWebviewViewProvider(DASHBOARD_VIEW_ID, dashboard),
    badge,
    returns,
    dropZones,
    ...registerHandoffCommands(deps),
    ...registerHistoryDocument(deps),
    ...registerWorkspaceCommands(deps, badge, tree),
    ...registerSessionCommands(deps, trust),
    registerCommand('agentsync.addHandoffNote', log, (arg) => addHandoffNote(deps, arg)),
    ...registerLanguageModelTools(deps),
    ...registerMcpProvider(mcp),
    services.onDidChange(() => {
      updateContext();
      dropZones.sync();
    }),
    trust.onDidChange(() => {
      updateContext();
      dropZones.sync();
      tree.refresh();
      dashboard.refresh();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentsync.agentId')) {
        identity = readAgentIdentity();
        if (identity.problem) log.warn(identity.problem);
        tree.refresh();
        dashboard.refresh();
        badge.update();
      }
      if (e.affectsConfiguration('agentsync.dropZone')) dropZones.sync();
    }),
  );

  // The first store read, the badge and the drop zone watchers start after activation returns.
  const deferred = setTimeout(() => {
    try {
      updateContext();
      badge.update();
      returns.checkAll();
      dropZones.sync();
    } catch (e) {
      log.error(`start-up after activation failed: ${(e as Error).stack ?? String(e)}`);
    }
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(deferred) });
  // The demo (scripts/editor/serve-demo.mjs) sets this so a first-time visitor lands on the Handoffs view, not the Explorer.
  if (process.env.AGENTSYNC_DEMO_SHOW_VIEW === '1') void vscode.commands.executeCommand('workbench.view.extension.agentsync');

  const activationMs = performance.now() - started;
  log.info(
    `activated in ${activationMs.toFixed(1)} ms for ${services.all().length} folder(s); agent id ${identity.id}; workspace ` +
      `${trust.trusted ? 'trusted' : 'restricted'}`,
  );
  if (identity.problem) log.warn(identity.problem);
  const probe = (root: string, agent: string) => treeProbe(root, agent, log);
  return testSeam({
    services,
    tree,
    treeView,
    dashboard,
    badge,
    trust,
    dropZones,
    mcp,
    identity: () => identity,
    activationMs,
    treeProbe: probe,
  });
}

/** Lets the drop zones answer what they already took before the extension host goes; the rest is disposed by VS Code. */
export function deactivate(): Promise<void> | undefined {
  const h = hosts;
  hosts = undefined;
  return h?.stopAll('the window is closing');
}
