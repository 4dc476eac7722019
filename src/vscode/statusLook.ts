// How a handoff status looks wherever the editor shows one (tree items, tooltips, pickers): its words and its codicon.
import * as vscode from 'vscode';
import type { Handoff, HandoffStatus } from '../core/domain/handoffSchema';

/** Codicon and theme color per status. */
export const STATUS_ICONS: Record<HandoffStatus, [string, string]> = {
  queued: ['circle-large-outline', 'charts.blue'],
  in_progress: ['play-circle', 'charts.yellow'],
  blocked: ['debug-pause', 'charts.orange'],
  ready_for_review: ['eye', 'charts.purple'],
  approved: ['pass', 'charts.green'],
  merged: ['git-merge', 'charts.green'],
  escalated: ['flame', 'charts.red'],
};

export function statusLabel(status: HandoffStatus): string {
  return status.replace(/_/g, ' ');
}

export function statusIcon(h: Handoff, stale: boolean): vscode.ThemeIcon {
  if (stale) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  const [icon, color] = STATUS_ICONS[h.status];
  return new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
}
