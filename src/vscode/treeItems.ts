// How each tree node looks: status codicons, the status as description, a tooltip with notes and history,
// and a contextValue per status that the view/item/context menus in package.json key on.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { displayAgent } from '../core/domain/agentId';
import { ATTENTION_GROUP_LABELS, type AttentionGroup } from '../core/domain/handoffAttention';
import type { Handoff, HandoffStatus } from '../core/domain/handoffSchema';
import { hasChildren, type HandoffNode, type TreeNode } from './treeNodes';

const STATUS_ICONS: Record<HandoffStatus, [string, string]> = {
  queued: ['circle-large-outline', 'charts.blue'],
  in_progress: ['play-circle', 'charts.yellow'],
  blocked: ['debug-pause', 'charts.orange'],
  ready_for_review: ['eye', 'charts.purple'],
  approved: ['pass', 'charts.green'],
  merged: ['git-merge', 'charts.green'],
  escalated: ['flame', 'charts.red'],
};

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

export function statusLabel(status: HandoffStatus): string {
  return status.replace(/_/g, ' ');
}

export function statusIcon(h: Handoff, stale: boolean): vscode.ThemeIcon {
  if (stale) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  const [icon, color] = STATUS_ICONS[h.status];
  return new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
}

function agents(ids: readonly string[]): string {
  return ids.length ? ids.map(displayAgent).join(', ') : '(nobody yet)';
}

/** Agent-written text as literal Markdown: control characters escaped, line breaks kept, spaces left to wrap. */
export function literal(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~$&]/g, '\\$&').replace(/\r?\n/g, '  \n');
}

/** The hover for a handoff: who, what, why stale, the notes, the result, and the history (newest last). */
export function handoffTooltip(h: Handoff, stale: string | null): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${h.handoff_id}** · $(${STATUS_ICONS[h.status][0]}) ${statusLabel(h.status)}`);
  if (h.priority) md.appendMarkdown(` · priority ${h.priority}`);
  md.appendMarkdown('\n\n');
  md.appendMarkdown(literal(h.summary));
  md.appendMarkdown('\n\n');
  md.appendMarkdown(literal(`From ${displayAgent(h.from_agent)} to ${agents(h.to_agents)} (${h.owner_mode})`));
  if (h.required_capabilities.length) md.appendMarkdown(literal(` · needs ${h.required_capabilities.join(', ')}`));
  if (h.claimed_by)
    md.appendMarkdown(literal(` · claimed by ${displayAgent(h.claimed_by)}${h.lease_expires_at ? ` until ${h.lease_expires_at}` : ''}`));
  if (h.task_id || h.branch)
    md.appendMarkdown(literal(`${h.task_id ? ` · task ${h.task_id}` : ''}${h.branch ? ` · branch ${h.branch}` : ''}`));
  md.appendMarkdown('\n\n');
  if (stale) {
    md.appendMarkdown('$(warning) **Stale:** ');
    md.appendMarkdown(literal(stale));
    md.appendMarkdown('\n\n');
  }
  if (h.conflicts?.length) {
    md.appendMarkdown(`$(warning) **Merge conflicts** (a human checks and clears them)\n\n`);
    for (const c of h.conflicts) {
      md.appendMarkdown('- ');
      md.appendMarkdown(
        literal(`${c.field}: ours ${conflictValue(c.ours)}, theirs ${conflictValue(c.theirs)}, kept ${conflictValue(c.resolved_to)}`),
      );
      md.appendMarkdown('\n');
    }
    md.appendMarkdown('\n');
  }
  if (h.no_handoff_reason) {
    md.appendMarkdown('**Skipped:** ');
    md.appendMarkdown(literal(h.no_handoff_reason));
    md.appendMarkdown('\n\n');
  }
  if (h.notes) {
    md.appendMarkdown('**Notes**\n\n');
    md.appendMarkdown(literal(h.notes));
    md.appendMarkdown('\n\n');
  }
  if (h.request || h.phase) {
    // Seed 003's request side: what the receiver was asked to do.
    const r = h.request ?? {};
    md.appendMarkdown(`**Request**${h.phase ? ` (${h.phase} phase)` : ''}\n\n`);
    const rows: [string, string | undefined][] = [
      ['Feature', r.feature],
      ['Spec', r.spec_path ?? undefined],
      ['Expected output', r.expected_output],
      ['Constraints', r.constraints?.join('; ')],
      ['Instructions', r.instructions],
    ];
    for (const [label, value] of rows) if (value) md.appendMarkdown(`- ${label}: ${literal(value)}\n`);
    md.appendMarkdown('\n');
  }
  if (h.result) {
    md.appendMarkdown(`**Result:** ${h.result.decision} (${h.result.status})\n\n`);
    if (h.result.context_summary) md.appendMarkdown(literal(h.result.context_summary));
    md.appendMarkdown('\n\n');
  }
  const history = h.state_history.slice(-10);
  if (history.length) {
    md.appendMarkdown(
      `**History**${h.state_history.length > history.length ? ` (last ${history.length} of ${h.state_history.length})` : ''}\n\n`,
    );
    for (const e of history) {
      md.appendMarkdown('- ');
      md.appendMarkdown(
        literal(
          `${e.timestamp.replace('T', ' ').slice(0, 16)} ${statusLabel(e.status)} by ${displayAgent(e.agent)}${e.reason ? `: ${e.reason}` : ''}`,
        ),
      );
      md.appendMarkdown('\n');
    }
  }
  return md;
}

function collapsible(node: TreeNode, expanded: boolean): vscode.TreeItemCollapsibleState {
  if (!hasChildren(node)) return vscode.TreeItemCollapsibleState.None;
  return expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
}

/** How a merge-conflict value reads in one line (JSON, shortened). */
export function conflictValue(v: unknown): string {
  const text = v === undefined ? '(none)' : (JSON.stringify(v) ?? `(${typeof v})`);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
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
  item.tooltip = handoffTooltip(h, node.stale);
  item.contextValue = `handoff.${h.status}`;
  return item;
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
