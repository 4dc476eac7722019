// How each tree node looks: status codicons, the status as description, a tooltip (handoffTooltip.ts, a handoff's built on hover), and a
// contextValue that the view/item/context menus in package.json key on (a handoff's: commandCatalog.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { chainLines } from '../core/domain/handoffChains';
import { ATTENTION_GROUP_LABELS, type AttentionGroup } from '../core/domain/handoffAttention';
import type { Handoff, HandoffStatus } from '../core/domain/handoffSchema';
import { handoffContextValue } from './commandCatalog';
import { conflictValue, handoffTooltip, literal } from './handoffTooltip';
import { statusIcon, statusLabel } from './statusIcons';
import { hasChildren, type HandoffNode, type TreeNode } from './treeNodes';

const GROUP_ICONS: Record<AttentionGroup, string> = {
  assigned: 'account',
  shared: 'organization',
  review: 'eye',
  blockedStale: 'warning',
  other: 'list-unordered',
};

const TODO_ICONS: Record<string, string> = {
  pending: 'circle-large-outline',
  in_progress: 'circle-large-filled',
  completed: 'pass',
  cancelled: 'circle-slash',
};

function collapsible(node: TreeNode, expanded: boolean): vscode.TreeItemCollapsibleState {
  if (!hasChildren(node)) return vscode.TreeItemCollapsibleState.None;
  return expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
}

function conflictCount(h: Handoff): string {
  const n = h.conflicts?.length ?? 0;
  return n ? ` · ${n} merge conflict${n === 1 ? '' : 's'}` : '';
}

function handoffItem(node: HandoffNode): vscode.TreeItem {
  const h = node.handoff;
  // Expanded when a merge left conflicts: they wait for a human, so they should be seen.
  const item = new vscode.TreeItem(h.summary.split('\n')[0], collapsible(node, (h.conflicts?.length ?? 0) > 0));
  item.description = `${statusLabel(h.status)}${node.stale ? ' · stale' : ''}${conflictCount(h)} · ${h.handoff_id}`;
  item.iconPath = h.conflicts?.length
    ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
    : statusIcon(h, node.stale !== null);
  // No tooltip here: it is built on hover (handoffItemTooltip, through resolveTreeItem), so expanding a group of
  // thousands builds no Markdown (docs/agentsync-documentation.md, "The tree at scale").
  item.contextValue = handoffContextValue(h);
  return item;
}

/** A handoff item's hover, built only when VS Code resolves the item (the pointer rests on it). */
export function handoffItemTooltip(node: HandoffNode): vscode.MarkdownString {
  return handoffTooltip(node.handoff, node.stale, chainLines(node.handoff, node.index.chains));
}

export function treeItemFor(node: TreeNode): vscode.TreeItem {
  let item: vscode.TreeItem;
  switch (node.kind) {
    case 'folder':
      item = new vscode.TreeItem(node.service.name, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('root-folder');
      item.description = node.service.layout.root;
      item.contextValue = 'folder';
      break;
    case 'group':
      item = new vscode.TreeItem(ATTENTION_GROUP_LABELS[node.group], collapsible(node, node.group !== 'other'));
      item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[node.group]);
      item.description = String(node.handoffs.length);
      item.contextValue = `group.${node.group}`;
      break;
    case 'handoff':
      item = handoffItem(node);
      break;
    case 'file': {
      const uri = vscode.Uri.file(path.join(node.service.layout.root, node.path));
      item = new vscode.TreeItem(path.basename(node.path), vscode.TreeItemCollapsibleState.None);
      item.resourceUri = uri;
      item.iconPath = vscode.ThemeIcon.File;
      item.description = path.dirname(node.path) === '.' ? undefined : path.dirname(node.path);
      item.tooltip = node.path;
      item.command = { command: 'vscode.open', title: 'Open File', arguments: [uri] };
      item.contextValue = 'file';
      break;
    }
    case 'todo':
      item = new vscode.TreeItem(node.todo.content.split('\n')[0], vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(TODO_ICONS[node.todo.status] ?? 'circle-large-outline');
      item.description = `${statusLabel(node.todo.status as HandoffStatus)} · ${node.todo.priority}`;
      item.tooltip = node.todo.content;
      item.contextValue = `todo.${node.todo.status}`;
      break;
    case 'conflict': {
      const c = node.conflict;
      item = new vscode.TreeItem(`Merge conflict: ${c.field}`, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('git-merge', new vscode.ThemeColor('list.warningForeground'));
      item.description = `ours ${conflictValue(c.ours)} · theirs ${conflictValue(c.theirs)} → ${conflictValue(c.resolved_to)}`;
      const md = new vscode.MarkdownString(undefined, true);
      md.appendMarkdown(
        `**${node.handoff.handoff_id}**: a git merge could not decide \`${c.field.replace(/`/g, "'")}\` on its own (${c.at}).\n\n`,
      );
      md.appendMarkdown(
        literal(`ours: ${JSON.stringify(c.ours)}\ntheirs: ${JSON.stringify(c.theirs)}\nkept: ${JSON.stringify(c.resolved_to)}`),
      );
      md.appendMarkdown('\n\nCheck the record, then **AgentSync: Clear Merge Conflicts** (humans only).');
      item.tooltip = md;
      item.contextValue = 'conflict';
      break;
    }
    case 'info':
      item = new vscode.TreeItem(node.message, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(node.tone === 'error' ? 'error' : node.tone === 'warning' ? 'shield' : 'info');
      item.tooltip = node.detail ?? node.message;
      item.command = node.command;
      item.contextValue = `info.${node.tone}`;
      break;
  }
  item.id = node.id;
  return item;
}
