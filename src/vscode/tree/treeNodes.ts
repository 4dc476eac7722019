// How each level of the Handoffs tree is built from a folder's view; the nodes' shapes are in treeNodeTypes.ts (re-exported here).
// Grouping, chains and staleness come from the core (attentionTree, handoffAttention); this file only arranges them.
// A level is built from what its parent node carries: no store read and no file call per node.
import { ATTENTION_GROUPS, showsWhenEmpty, staleReason } from '../../core/domain/handoffAttention';
import { buildAttentionTree, chainedUnder } from '../../core/domain/attentionTree';
import type { Handoff } from '../../core/domain/handoffSchema';
import { notices } from './treeNotices';
import type { FolderService } from '../folders/folderService';
import type {
  ConflictNode,
  FileNode,
  FolderNode,
  GroupNode,
  HandoffNode,
  ReviewFileNode,
  TodoNode,
  TreeContext,
  TreeNode,
} from './treeNodeTypes';
import { reportedFiles } from '../../core/domain/fileReview';
import type { CommandId } from '../manifest/commandIds';

export type * from './treeNodeTypes';

/** A folder's top level: notices, then the groups (the three named ones always, the others when not empty). */
export function folderChildren(service: FolderService, ctx: TreeContext, parent?: FolderNode): TreeNode[] {
  const view = service.view();
  if (!view.initialized) {
    if (!parent) return []; // single folder: the welcome view explains and offers Initialize
    return [
      {
        kind: 'info',
        id: `${parent.id}|uninitialized`,
        service,
        parent,
        tone: 'info',
        message: 'Not an AgentSync workspace yet: click to initialize',
        command: { command: 'agentsync.init' satisfies CommandId, title: 'Initialize', arguments: [service.layout.root] },
      },
    ];
  }
  if (view.checking) return notices(service, ctx, parent, view.problem, true); // no empty groups that are not yet true
  const attention = { me: ctx.me, humans: view.config.humans, config: view.config, now: ctx.now };
  const tree = buildAttentionTree(view.handoffs, attention);
  const base = parent ? parent.id : service.layout.root;
  const groups: GroupNode[] = [];
  for (const g of ATTENTION_GROUPS) {
    const index = tree[g];
    if (index.handoffs.length === 0 && !showsWhenEmpty(g)) continue;
    groups.push({
      kind: 'group',
      id: `${base}|group:${g}`,
      service,
      parent,
      group: g,
      handoffs: index.handoffs,
      index,
      all: view.handoffs,
      config: view.config,
    });
  }
  return [...notices(service, ctx, parent, view.problem), ...groups];
}

/**
 * A group's handoffs (core attentionTree): one passed on from another in the same group is shown only under it; one
 * whose parent is in another group is shown in its own group too, and under its parent there.
 */
export function groupChildren(node: GroupNode, ctx: TreeContext): HandoffNode[] {
  return node.index.top.map((h) => handoffNode(node, h, node, ctx));
}

/** True when `uid` is this node's handoff or one above it: a loop in parent_uid (a corrupted store) must not nest forever. */
function onPath(node: TreeNode | undefined, uid: string | undefined): boolean {
  for (let n = node; n; n = n.parent) if (n.kind === 'handoff' && n.handoff.uid === uid) return true;
  return false;
}

function handoffNode(parent: TreeNode, h: Handoff, from: GroupNode | HandoffNode, ctx: TreeContext): HandoffNode {
  return {
    kind: 'handoff',
    id: `${parent.id}/ho:${h.uid ?? h.handoff_id}`,
    service: parent.service,
    parent,
    handoff: h,
    stale: staleReason(h, from.config, ctx.now),
    chained: chainedUnder(from.index, h).filter((c) => !onPath(parent, c.uid)),
    index: from.index,
    all: from.all,
    config: from.config,
  };
}

/**
 * Under a handoff: its merge conflicts (first: they need a human), the handoffs passed on from it, the files its report
 * lists (per-file review: click opens the diff), its files (click opens), then its todos.
 */
export function handoffChildren(node: HandoffNode, ctx: TreeContext): TreeNode[] {
  const h = node.handoff;
  return [
    ...(h.conflicts ?? []).map((c, i): ConflictNode => ({
      kind: 'conflict',
      id: `${node.id}/conflict:${i}:${c.field}`,
      service: node.service,
      parent: node,
      conflict: c,
      handoff: h,
    })),
    ...node.chained.map((c) => handoffNode(node, c, node, ctx)),
    ...reportedFiles(h).map((f): ReviewFileNode => ({
      kind: 'reviewFile',
      id: `${node.id}/review:${f.path}`,
      service: node.service,
      parent: node,
      file: f,
      handoff: h,
    })),
    ...h.files.map((p): FileNode => ({
      kind: 'file',
      id: `${node.id}/file:${p}`,
      service: node.service,
      parent: node,
      path: p,
      handoff: h,
    })),
    ...(h.todos ?? []).map((t): TodoNode => ({
      kind: 'todo',
      id: `${node.id}/todo:${t.id}`,
      service: node.service,
      parent: node,
      todo: t,
      handoff: h,
    })),
  ];
}

export function hasChildren(node: TreeNode): boolean {
  switch (node.kind) {
    case 'folder':
      return true;
    case 'group':
      return node.handoffs.length > 0;
    case 'handoff':
      return (
        node.chained.length +
          node.handoff.files.length +
          reportedFiles(node.handoff).length +
          (node.handoff.todos?.length ?? 0) +
          (node.handoff.conflicts?.length ?? 0) >
        0
      );
    default:
      return false;
  }
}
