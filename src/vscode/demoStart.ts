// What the demo (scripts/editor/serve-demo.mjs) asks of the extension through the environment of the editor server it
// starts, so that a first-time visitor sees the product at once: the AgentSync view shown, a file another agent holds
// opened (its tab carries the ⇄ badge), and a chain of passed work revealed in the Handoffs tree (its group and parent
// expanded, as Show Handoff would). Nothing here runs unless those variables are set; the tree's rules stay the same.
import * as vscode from 'vscode';
import type { FolderServices } from './folders/folderServices';
import type { HandoffTreeProvider } from './tree/handoffTreeProvider';
import { findHandoffNode } from './tree/revealHandoff';
import type { TreeNode } from './tree/treeNodes';

export const DEMO_SHOW_VIEW = 'AGENTSYNC_DEMO_SHOW_VIEW';
export const DEMO_OPEN_FILE = 'AGENTSYNC_DEMO_OPEN_FILE';
export const DEMO_REVEAL_HANDOFF = 'AGENTSYNC_DEMO_REVEAL_HANDOFF';

/** How long the demo waits for the chain to be in the tree (the store is read after activation). */
const REVEAL_WAIT_MS = 30_000;

export function startDemo(
  env: NodeJS.ProcessEnv,
  services: FolderServices,
  tree: HandoffTreeProvider,
  view: vscode.TreeView<TreeNode>,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  if (env[DEMO_SHOW_VIEW] === '1') void vscode.commands.executeCommand('workbench.view.extension.agentsync');
  const root = vscode.workspace.workspaceFolders?.[0];
  const file = env[DEMO_OPEN_FILE];
  if (file && root) void vscode.window.showTextDocument(vscode.Uri.joinPath(root.uri, file), { preview: false });
  const id = env[DEMO_REVEAL_HANDOFF];
  if (!id) return { dispose: () => {} };

  // Revealed once it is in the tree: the first store read happens after activation, so retry on each store change.
  const disposables: vscode.Disposable[] = [];
  const finish = () => {
    for (const d of disposables.splice(0)) d.dispose();
  };
  const tryReveal = () => {
    for (const service of services.all()) {
      const node = findHandoffNode(tree, service, id);
      if (!node) continue;
      finish();
      view.reveal(node, { select: false, focus: false, expand: false }).then(
        () => log.info(`demo: revealed ${id} in the Handoffs tree`),
        (e: unknown) => log.warn(`demo: could not reveal ${id}: ${(e as Error).message}`),
      );
      return;
    }
  };
  const first = setTimeout(tryReveal, 0);
  const giveUp = setTimeout(() => {
    log.warn(`demo: ${id} was not in the Handoffs tree after ${REVEAL_WAIT_MS / 1000} s`);
    finish();
  }, REVEAL_WAIT_MS);
  disposables.push(services.onDidChange(tryReveal), {
    dispose: () => {
      clearTimeout(first);
      clearTimeout(giveUp);
    },
  });
  return { dispose: finish };
}
