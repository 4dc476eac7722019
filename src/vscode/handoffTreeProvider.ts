// The Handoffs tree: one level of folders in a multi-root window, else the folder's groups directly.
// A store change refreshes only that folder's subtree; nodes are rebuilt from the (stat-cached) store.
import * as vscode from 'vscode';
import type { FolderService } from './folderService';
import type { FolderServices } from './folderServices';
import { folderChildren, groupChildren, handoffChildren, type FolderNode, type TreeContext, type TreeNode } from './treeNodes';
import { treeItemFor } from './treeItems';

const REFRESH_INTERVAL_MS = 100;

export class HandoffTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly folderNodes = new Map<FolderService, FolderNode>();
  /** Nodes by id: the view knows elements by identity (reveal, getParent), so a rebuilt node reuses its object. */
  private readonly interned = new Map<string, TreeNode>();
  private readonly subscription: vscode.Disposable;
  private pendingAll = false;
  private readonly pendingFolders = new Set<FolderNode>();
  private timer: NodeJS.Timeout | undefined;
  private lastFired = 0;

  constructor(
    private readonly services: FolderServices,
    private readonly context: () => TreeContext,
  ) {
    this.subscription = services.onDidChange((s) => this.refresh(s));
  }

  /**
   * Re-renders one folder (when it has its own node) or the whole tree. A burst of store changes (an agent
   * dropping many requests) renders at most once per REFRESH_INTERVAL_MS: the first at once, the rest batched.
   */
  refresh(service?: FolderService): void {
    const node = service && this.isMultiRoot() ? this.folderNodes.get(service) : undefined;
    if (node) this.pendingFolders.add(node);
    else this.pendingAll = true;
    if (this.timer) return;
    const wait = this.lastFired + REFRESH_INTERVAL_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = undefined;
    this.lastFired = Date.now();
    const all = this.pendingAll;
    const folders = [...this.pendingFolders];
    this.pendingAll = false;
    this.pendingFolders.clear();
    if (all) this.emitter.fire(undefined);
    else for (const f of folders) this.emitter.fire(f);
  }

  private isMultiRoot(): boolean {
    return this.services.all().length > 1;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    return this.build(node).map((n) => this.intern(n));
  }

  private intern(node: TreeNode): TreeNode {
    const known = this.interned.get(node.id);
    if (!known || known.kind !== node.kind) {
      if (this.interned.size > 20_000) this.interned.clear(); // ids of long-gone handoffs
      this.interned.set(node.id, node);
      return node;
    }
    for (const key of Object.keys(known)) if (!(key in node)) delete (known as unknown as Record<string, unknown>)[key];
    return Object.assign(known, node);
  }

  private build(node?: TreeNode): TreeNode[] {
    const ctx = this.context();
    if (!node) {
      const all = this.services.all();
      if (all.length === 1) return folderChildren(all[0], ctx);
      for (const s of [...this.folderNodes.keys()]) if (!all.includes(s)) this.folderNodes.delete(s);
      if (!all.some((s) => s.isInitialized())) return []; // the welcome view offers Initialize
      return all.map((s) => this.folderNode(s));
    }
    switch (node.kind) {
      case 'folder':
        return folderChildren(node.service, ctx, node);
      case 'group':
        return groupChildren(node, ctx);
      case 'handoff':
        return handoffChildren(node, ctx);
      default:
        return [];
    }
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return treeItemFor(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  private folderNode(service: FolderService): FolderNode {
    let node = this.folderNodes.get(service);
    if (!node) {
      node = { kind: 'folder', id: service.layout.root, service };
      this.folderNodes.set(service, node);
    }
    return node;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
