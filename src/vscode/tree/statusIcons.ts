// How a handoff status looks: its codicon and theme colour (one map for the tree, its tooltips and the quick picks)
// and its words, so a status looks the same wherever the editor shows it.
import * as vscode from 'vscode';
import type { Handoff, HandoffStatus } from '../../core/domain/handoffSchema';

export interface StatusIcon {
  codicon: string;
  color: string;
}

export const STATUS_ICONS: Record<HandoffStatus, StatusIcon> = {
  queued: { codicon: 'circle-large-outline', color: 'charts.blue' },
  in_progress: { codicon: 'play-circle', color: 'charts.yellow' },
  blocked: { codicon: 'debug-pause', color: 'charts.orange' },
  ready_for_review: { codicon: 'eye', color: 'charts.purple' },
  approved: { codicon: 'pass', color: 'charts.green' },
  merged: { codicon: 'git-merge', color: 'charts.green' },
  escalated: { codicon: 'flame', color: 'charts.red' },
  withdrawn: { codicon: 'circle-slash', color: 'disabledForeground' },
};

export function statusLabel(status: HandoffStatus): string {
  return status.replace(/_/g, ' ');
}

/** The item icon: the status's codicon in its colour, or a warning when the handoff is stale. */
export function statusIcon(h: Handoff, stale: boolean): vscode.ThemeIcon {
  if (stale) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  const { codicon, color } = STATUS_ICONS[h.status];
  return new vscode.ThemeIcon(codicon, new vscode.ThemeColor(color));
}
