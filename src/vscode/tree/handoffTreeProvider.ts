// The Handoffs tree: one level of folders in a multi-root window, else the folder's groups directly.
// A store change refreshes only the groups whose handoffs changed (or that folder's subtree when its groups or
// notices changed); nodes are rebuilt from the (stat-cached) store, each level from what its parent node carries.
import * as vscode from 'vscode';
import { drawnBelow } from '../../core/domain/attentionTree';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import { folderChildren, groupChildren, handoffChildren, type FolderNode, type TreeContext, type TreeNode } from './treeNodes';
import { handoffItemTooltip, treeItemFor } from './treeItems';

const REFRESH_INTERVAL_MS = 100;

/** What the tree needs of the folders: the list, and news of a change. */
export type TreeFolders = Pick<FolderServices, 'all' | 'onDidChange'>;

/** What a folder's top level looked like when last rendered: ids, and each group's handoffs (records are replaced, never mutated). */
type Rendered = { id: string; handoffs?: readonly unknown[]; text?: string }[];

export class HandoffTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly folderNodes = new Map<FolderService, FolderNode>();
  /** Nodes by id: the view knows elements by identity (reveal, getParent), so a rebuilt node reuses its object. */
  private readonly interned = new Map<string, TreeNode>();
  private readonly subscription: vscode.Disposable;
  private pendingAll = false;
  private readonly pendingServices = new Set<FolderService>();
  /** A folder's top level as last handed to the view, by folder root. */
  private readonly rendered = new Map<string, Rendered>();
  private timer: NodeJS.Timeout | undefined;
  private lastFired = 0;

  constructor(
    private readonly services: TreeFolders,
    private readonly context: () => TreeContext,
  ) {
    this.subscription = services.onDidChange((s) => this.refresh(s));
  }

  /**
   * Re-renders what changed in one folder, or the whole tree. A burst of store changes (an agent dropping many
   * requests) renders at most once per REFRESH_INTERVAL_MS: the first at once, the rest batched.
   */
  refresh(service?: FolderService): void {
    if (service) this.pendingServices.add(service);
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
    const services = [...this.pendingServices];
    this.pendingAll = false;
    this.pendingServices.clear();
    if (all) {
      this.rendered.clear();
      this.emitter.fire(undefined);
      return;
    }
    for (const s of services) for (const node of this.changedNodes(s)) this.emitter.fire(node);
  }

  /**
   * The nodes to re-render after `service` changed: its groups whose handoffs changed when its top level kept the
   * same groups and notices, else the folder's node (the whole tree when it has none), whose children the view re-asks.
   */
  private changedNodes(service: FolderService): (TreeNode | undefined)[] {
    const parent = this.isMultiRoot() ? this.folderNodes.get(service) : undefined;
    if (this.isMultiRoot() && !parent) return [undefined];
    const before = this.rendered.get(service.layout.root);
    if (!before) return [parent];
    const fresh = this.build(parent);
    const after = renderedOf(fresh);
    if (after.length !== before.length || after.some((n, i) => n.id !== before[i].id || n.text !== before[i].text)) {
      this.rendered.delete(service.layout.root);
      return [parent];
    }
    const changed = fresh.filter((_, i) => !sameItems(after[i].handoffs, before[i].handoffs));
    fresh.forEach((n) => this.intern(n)); // the unchanged groups' nodes carry the new index too
    this.rendered.set(service.layout.root, after);
    return changed.map((n) => this.interned.get(n.id));
  }

  private isMultiRoot(): boolean {
    return this.services.all().length > 1;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const children = this.build(node).map((n) => this.intern(n));
    const folder = node?.kind === 'folder' ? node.service : !node && this.services.all().length === 1 ? this.services.all()[0] : undefined;
    if (folder) this.rendered.set(folder.layout.root, renderedOf(children));
    return children;
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

  /** Fills in what getTreeItem leaves out because it is costly and seen only on hover: a handoff's tooltip. */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    if (node.kind === 'handoff' && item.tooltip === undefined) item.tooltip = handoffItemTooltip(node);
    return item;
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

/** A group is compared by its handoffs and those drawn beneath them (a chained child may belong to another group). */
function renderedOf(nodes: readonly TreeNode[]): Rendered {
  return nodes.map((n) =>
    n.kind === 'group'
      ? { id: n.id, handoffs: [...n.handoffs, ...drawnBelow(n.index, n.handoffs)] }
      : { id: n.id, text: n.kind === 'info' ? `${n.message}|${n.detail}` : '' },
  );
}

function sameItems(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return a === b;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
