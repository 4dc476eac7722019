// "Show Handoff": selects a handoff in the Handoffs tree (opening the view), or opens its record when the tree does
// not show it (e.g. a finished handoff, which the tree hides).
import * as vscode from 'vscode';
import type { FolderService } from '../folders/folderService';
import type { HandoffTreeProvider } from './handoffTreeProvider';
import type { TreeNode } from './treeNodes';
import type { CommandId } from '../manifest/commandIds';

const SEARCH_DEPTH = 4; // folder → group → handoff → chained handoff

/** The tree node of `handoffId` in `service`'s folder (in its group, or under the handoff it was passed from), if shown. */
export function findHandoffNode(tree: HandoffTreeProvider, service: FolderService, handoffId: string): TreeNode | undefined {
  let level: TreeNode[] = tree.getChildren();
  for (let depth = 0; depth < SEARCH_DEPTH && level.length; depth++) {
    const hit = level.find((n) => n.kind === 'handoff' && n.service === service && n.handoff.handoff_id === handoffId);
    if (hit) return hit;
    level = level.filter((n) => n.kind === 'folder' || n.kind === 'group' || n.kind === 'handoff').flatMap((n) => tree.getChildren(n));
  }
  return undefined;
}

export async function revealHandoff(
  tree: HandoffTreeProvider,
  view: vscode.TreeView<TreeNode>,
  service: FolderService,
  handoffId: string,
): Promise<'tree' | 'record'> {
  const node = findHandoffNode(tree, service, handoffId);
  if (node) {
    await view.reveal(node, { select: true, focus: true, expand: true });
    return 'tree';
  }
  await vscode.commands.executeCommand('agentsync.openRecord' satisfies CommandId, { handoffId, folder: service.layout.root });
  return 'record';
}
