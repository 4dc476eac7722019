// How each tree node looks: status codicons, a handoff's id and status as label (its summary as description), a tooltip
// (handoffTooltip.ts, a handoff's built on hover), and a contextValue that the view/item/context menus in package.json key
// on (manifest/commandCatalog.ts and manifest/treeItemContext.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { groupFlag } from '../../core/domain/passGroup';
import { chainLines } from '../../core/domain/handoffChains';
import { ATTENTION_GROUP_LABELS, type AttentionGroup } from '../../core/domain/handoffAttention';
import type { Handoff, HandoffStatus } from '../../core/domain/handoffSchema';
import { handoffContextValue } from '../manifest/commandCatalog';
import { ITEM_CONTEXT } from '../manifest/treeItemContext';
import { conflictValue, handoffTooltip, literal } from './handoffTooltip';
import { statusIcon, statusLabel } from './statusIcons';
import { hasChildren, type HandoffNode, type ReviewFileNode, type TreeNode } from './treeNodes';
import { canReviewFiles } from '../../core/domain/fileReview';
import { OPEN_FILE_DIFF } from '../manifest/commandCatalog';

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

/**
 * The tree's word for a status: the status label, but `for review` for ready_for_review, so that id and status fit
 * the default sidebar width even two levels down (about 28 characters).
 */
const TREE_STATUS: Partial<Record<HandoffStatus, string>> = { ready_for_review: 'for review' };

/** `HO-20261123-002 in progress`: what must stay readable when the row is cut. */
export function handoffLabel(h: Handoff): string {
  return `${h.handoff_id} ${TREE_STATUS[h.status] ?? statusLabel(h.status)}`;
}

/** `stale · ` and the merge-conflict count when they apply, then the summary's first line (the part that may be cut). */
export function handoffDescription(node: HandoffNode): string {
  const h = node.handoff;
  const conflicts = h.conflicts?.length ?? 0;
  // A fan-out's children sit side by side under the work they came from; the mark says they are one group, numbered
  // among all its children (the folder's handoffs: children waiting on different agents may be in different groups).
  const group = groupFlag(h, node.all);
  const flags = [
    ...(group ? [group] : []),
    ...(node.stale ? ['stale'] : []),
    ...(conflicts ? [`${conflicts} merge conflict${conflicts === 1 ? '' : 's'}`] : []),
  ];
  return [...flags, h.summary.split('\n')[0]].join(' · ');
}

function handoffItem(node: HandoffNode): vscode.TreeItem {
  const h = node.handoff;
  // Expanded when a merge left conflicts: they wait for a human, so they should be seen.
  // Id and status first, the rest as description: at the default sidebar width the end of a row is cut, and the
  // summary is the part that can be cut (the hover shows it whole).
  const item = new vscode.TreeItem(handoffLabel(h), collapsible(node, (h.conflicts?.length ?? 0) > 0));
  item.description = handoffDescription(node);
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

const DECISION_ICONS = { accepted: 'pass', rejected: 'close' } as const;

/** A file of a report: Accept / Reject while it waits (its contextValue), its decision after; a click opens its diff. */
function reviewFileItem(node: ReviewFileNode): vscode.TreeItem {
  const f = node.file;
  const item = new vscode.TreeItem(path.basename(f.path), vscode.TreeItemCollapsibleState.None);
  item.resourceUri = vscode.Uri.file(path.join(node.service.layout.root, f.path));
  const r = f.review;
  item.iconPath = r ? new vscode.ThemeIcon(DECISION_ICONS[r.decision]) : new vscode.ThemeIcon('diff');
  item.description = [f.change, r ? `${r.decision} by ${r.by}` : canReviewFiles(node.handoff) ? 'to review' : null, path.dirname(f.path)]
    .filter((x) => x && x !== '.')
    .join(' · ');
  item.tooltip = [f.path, f.summary, r?.reason ? `${r.decision}: ${r.reason}` : null].filter(Boolean).join('\n');
  item.command = { command: OPEN_FILE_DIFF, title: 'Open Diff', arguments: [node] };
  item.contextValue = ITEM_CONTEXT.reviewFile(r ? r.decision : canReviewFiles(node.handoff) ? 'pending' : 'none');
  return item;
}

export function treeItemFor(node: TreeNode): vscode.TreeItem {
  let item: vscode.TreeItem;
  switch (node.kind) {
    case 'folder':
      item = new vscode.TreeItem(node.service.name, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('root-folder');
      item.description = node.service.layout.root;
      item.contextValue = ITEM_CONTEXT.folder;
      break;
    case 'group':
      item = new vscode.TreeItem(ATTENTION_GROUP_LABELS[node.group], collapsible(node, node.group !== 'other'));
      item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[node.group]);
      item.description = String(node.handoffs.length);
      item.contextValue = ITEM_CONTEXT.group(node.group);
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
      item.contextValue = ITEM_CONTEXT.file;
      break;
    }
    case 'reviewFile':
      item = reviewFileItem(node);
      break;
    case 'todo':
      item = new vscode.TreeItem(node.todo.content.split('\n')[0], vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(TODO_ICONS[node.todo.status] ?? 'circle-large-outline');
      item.description = `${statusLabel(node.todo.status as HandoffStatus)} · ${node.todo.priority}`;
      item.tooltip = node.todo.content;
      item.contextValue = ITEM_CONTEXT.todo(node.todo.status);
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
      item.contextValue = ITEM_CONTEXT.conflict;
      break;
    }
    case 'info':
      item = new vscode.TreeItem(node.message, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(node.tone === 'error' ? 'error' : node.tone === 'warning' ? 'shield' : 'info');
      item.tooltip = node.detail ?? node.message;
      item.command = node.command;
      item.contextValue = ITEM_CONTEXT.info(node.tone);
      break;
  }
  item.id = node.id;
  return item;
}
