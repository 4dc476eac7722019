// The settings of session care and zero-touch sessions (docs/agentsync-documentation.md, "Settings"), read when used,
// so a change applies to the next command without a reload.
import * as vscode from 'vscode';
import type { ZeroTouchDefaults } from '../../core/requests/sessions/zeroTouchRouting';

export const REMINDER_HOURS_SETTING = 'agentsync.sessionReminderHours';
export const ZERO_TOUCH_SETTING = 'agentsync.automation.endSessionZeroTouch';
const DEFAULT_REMINDER_HOURS = 2;

const config = () => vscode.workspace.getConfiguration('agentsync');

export function zeroTouchEnabled(): boolean {
  return config().get<boolean>('automation.endSessionZeroTouch') === true;
}

/** Only strings are kept: the routing (core) says what is wrong with one that is not an agent id or a capability. */
function strings(key: string): string[] {
  const v = config().get<unknown>(key);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function zeroTouchDefaults(): ZeroTouchDefaults {
  return { handoffTo: strings('automation.handoffTo'), handoffCapabilities: strings('automation.handoffCapabilities') };
}

/** Hours between session reminders; 0 turns them off. A value that is not a number ≥ 0 counts as the default. */
export function reminderHours(): number {
  const v = config().get<unknown>('sessionReminderHours');
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_REMINDER_HOURS;
}
