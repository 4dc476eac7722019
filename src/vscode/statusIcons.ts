// The codicon and theme colour of each handoff status: one map for the tree, its tooltips and the quick picks,
// so a status looks the same wherever the editor shows it.
import type { HandoffStatus } from '../core/domain/handoffSchema';

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
};
