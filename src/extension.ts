// Composition root: wires the per-folder services, the Handoffs tree, the dashboard, the stale badge, the drop zone
// hosts and the commands, and owns every disposable. Activation reads nothing from disk; the first view or badge
// update (deferred to after activation) reads the store.
import * as vscode from 'vscode';
import { readAgentIdentity, type AgentIdentity } from './vscode/agents/agentIdentity';
import { offerCommandToTerminals } from './vscode/agents/agentsyncCommandInPath';
import { registerCommands } from './vscode/commandRegistrar';
import { DashboardView } from './vscode/dashboard/dashboardView';
import { DropZoneHosts, hostDropZone } from './vscode/folders/dropZoneHost';
import { FolderService } from './vscode/folders/folderService';
import { FolderServices } from './vscode/folders/folderServices';
import type { CommandDeps } from './vscode/commands/commandDeps';
import { HandoffTreeProvider } from './vscode/tree/handoffTreeProvider';
import { registerHistoryDocument } from './vscode/commands/historyDocument';
import { registerGitObjects } from './vscode/commands/fileReviewCommands';
import { HotFileDecorations } from './vscode/hotFiles/hotFileDecorations';
import { HotFileIndex } from './vscode/hotFiles/hotFileIndex';
import { HotFileWarnings } from './vscode/hotFiles/hotFileWarnings';
import { registerLanguageModelTools } from './vscode/agents/languageModelTools';
import { AgentSyncMcpProvider, registerMcpProvider } from './vscode/agents/mcpServerProvider';
import { ReturnNotifier } from './vscode/notices/returnNotifier';
import { revealHandoff } from './vscode/tree/revealHandoff';
import { reminderHours, REMINDER_HOURS_SETTING } from './vscode/sessionCare/automationSettings';
import { offerDanglingSessions, type DanglingSessionPrompt } from './vscode/sessionCare/danglingSessionPrompt';
import { SessionReminders } from './vscode/sessionCare/sessionReminders';
import { SessionStates } from './vscode/sessionCare/sessionStates';
import { ZeroTouchSessions } from './vscode/sessionCare/zeroTouchSession';
import { StaleBadge } from './vscode/notices/staleBadge';
import { startDemo } from './vscode/demoStart';
import { testSeam } from './vscode/testSeam';
import { AgentSyncFolderWatcher } from './core/workspace/agentSyncFolderWatcher';
import { treeProbe, type TreeProbe } from './vscode/tree/treeProbe';
import type { TreeNode } from './vscode/tree/treeNodes';
import { TrustState } from './vscode/folders/trustState';
import { INITIALIZED_CONTEXT_KEY, STORE_READ_CONTEXT_KEY } from './vscode/manifest/contextKeys';
import { DASHBOARD_VIEW_ID, HANDOFFS_VIEW_ID } from './vscode/manifest/viewContributions';
import { markInitializeStepDone } from './vscode/setup/walkthroughProgress';
import { INTRO_MESSAGE } from './vscode/tree/viewContext';
import { NewWorkNotifier } from './vscode/notices/newWorkNotifier';
import { newWindow } from './vscode/commands/worktreeCommand';

/** The integration suite's handles on the running extension; exported only to the suite (see vscode/testSeam.ts). */
export interface AgentSyncApi {
  services: FolderServices;
  tree: HandoffTreeProvider;
  treeView: vscode.TreeView<TreeNode>;
  dashboard: DashboardView;
  badge: StaleBadge;
  trust: TrustState;
  dropZones: DropZoneHosts;
  /** What VS Code asks for `agentsync mcp` server definitions. */
  mcp: AgentSyncMcpProvider;
  /** The new-work notifications this window showed. */
  newWork: NewWorkNotifier;
  identity(): AgentIdentity;
  hotFiles: { index: HotFileIndex; decorations: HotFileDecorations; warnings: HotFileWarnings };
  sessionCare: {
    states: SessionStates;
    reminders: SessionReminders;
    zeroTouch: ZeroTouchSessions;
    startupPrompts: DanglingSessionPrompt[];
  };
  /** How many AgentSyncFolderWatchers are live for a folder root: one per folder (docs/architecture.md). */
  folderWatchers(root: string): number;
  /** The context keys this extension has set (setContext), with their last values. */
  contextKeys(): Record<string, unknown>;
  /** Milliseconds spent in activate(). */
  activationMs: number;
  /** A separate Handoffs tree over any folder (the scale test's large store); the caller disposes it. */
  treeProbe(root: string, me: string): TreeProbe;
  /** How "Open in New Worktree" opens its window (the suite replaces `execute` to see the call). */
  newWindow: typeof newWindow;
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
  const treeView = vscode.window.createTreeView<TreeNode>(HANDOFFS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
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
  const states = new SessionStates(services);
  const hotIndex = new HotFileIndex(services, states, me, log);
  const decorations = new HotFileDecorations(hotIndex);
  const showHandoff = async (service: FolderService, handoffId: string): Promise<string> => {
    try {
      return await revealHandoff(tree, treeView, service, handoffId);
    } catch (e) {
      log.error(`Show Handoff ${handoffId} failed: ${(e as Error).message}`);
      return `failed: ${(e as Error).message}`;
    }
  };
  const newWork = new NewWorkNotifier(services, me, showHandoff, log);
  const warnings = new HotFileWarnings(hotIndex, states, me, (hit, id) => showHandoff(hit.service, id));
  const reminders = new SessionReminders(services, states, me, reminderHours, log);
  const zeroTouch = new ZeroTouchSessions(deps, trust, states);
  const startupPrompts: DanglingSessionPrompt[] = [];

  const contextKeys: Record<string, unknown> = {};
  const setContext = async (key: string, value: unknown) => {
    contextKeys[key] = value;
    await vscode.commands.executeCommand('setContext', key, value);
  };
  const updateContext = () => {
    const now = services.all().some((s) => s.isInitialized());
    const message = now ? INTRO_MESSAGE : undefined;
    if (treeView.message !== message) treeView.message = message;
    if (now === contextKeys[INITIALIZED_CONTEXT_KEY]) return;
    // The welcome needs both keys (vscode/tree/viewContext.ts): "read" only once "initialized" holds its value.
    void setContext(INITIALIZED_CONTEXT_KEY, now).then(() =>
      contextKeys[STORE_READ_CONTEXT_KEY] ? undefined : setContext(STORE_READ_CONTEXT_KEY, true),
    );
    if (now) void markInitializeStepDone(context.extension.id, log);
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
    newWork,
    dropZones,
    ...registerCommands({ deps, trust, badge, tree, automation: zeroTouch, extension: context }),
    ...registerHistoryDocument(deps),
    registerGitObjects(services),
    states,
    hotIndex,
    vscode.window.registerFileDecorationProvider(decorations),
    warnings,
    reminders,
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
        hotIndex.updateAll();
        reminders.schedule();
      }
      if (e.affectsConfiguration(REMINDER_HOURS_SETTING)) reminders.schedule();
      if (e.affectsConfiguration('agentsync.dropZone')) dropZones.sync();
    }),
  );

  // The first store read, the badge and the drop zone watchers start after activation returns.
  const deferred = setTimeout(() => {
    try {
      updateContext();
      badge.update();
      returns.checkAll();
      newWork.checkAll();
      dropZones.sync();
      hotIndex.start();
      warnings.checkActiveEditor();
      reminders.start();
      startupPrompts.push(...offerDanglingSessions(services, states, reminders, identity.id, log));
      offerCommandToTerminals(context, log);
    } catch (e) {
      log.error(`start-up after activation failed: ${(e as Error).stack ?? String(e)}`);
    }
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(deferred) });
  // Only when scripts/editor/serve-demo.mjs started this editor: the view shown, a hot file opened, the chain revealed.
  context.subscriptions.push(startDemo(process.env, services, tree, treeView, log));

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
    newWork,
    identity: () => identity,
    hotFiles: { index: hotIndex, decorations, warnings },
    sessionCare: { states, reminders, zeroTouch, startupPrompts },
    folderWatchers: (root: string) => AgentSyncFolderWatcher.liveCount(root),
    contextKeys: () => ({ ...contextKeys }),
    activationMs,
    treeProbe: probe,
    newWindow,
  });
}

/** Lets the drop zones answer what they already took before the extension host goes; the rest is disposed by VS Code. */
export function deactivate(): Promise<void> | undefined {
  const h = hosts;
  hosts = undefined;
  return h?.stopAll('the window is closing');
}
