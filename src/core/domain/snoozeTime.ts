// When a snooze ends (snoozeHandoff, docs/contract.md §8): an ISO time with its offset, or a duration from now such as
// `30m`, `2h`, `1d`, `1w`. Pure, so the CLI, the editor and the dispatcher read `until` alike.
import { ActionError } from './errors';

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** The longest snooze: a snoozed handoff is still open work, so it comes back within a month. */
export const MAX_SNOOZE_MS = 30 * UNIT_MS.d;

/** Whether the date part names a day of its month: Date.parse rolls 2026-11-31 over to 1 December instead of refusing it. */
function realDay(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The ISO time `until` names (relative to `now`); refused with what to write when it is unreadable, past or too far. */
export function snoozeEnd(until: string, now: Date): string {
  const text = until.trim();
  const duration = /^(\d{1,5})\s*([mhdw])$/i.exec(text);
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && realDay(text) ? Date.parse(text) : NaN;
  if (!duration && /^\d{4}-\d{2}-\d{2}T/.test(text) && !realDay(text))
    throw new ActionError(
      'invalid_request',
      `until: ${text.slice(0, 10)} is not a day of the calendar; give a real date. Nothing was changed.`,
      {
        field: 'until',
      },
    );
  const end = duration ? now.getTime() + Number(duration[1]) * UNIT_MS[duration[2].toLowerCase()] : iso;
  if (!Number.isFinite(end)) {
    throw new ActionError(
      'invalid_request',
      `until: ${JSON.stringify(until.slice(0, 64))} is neither a duration (30m, 2h, 1d, 1w) nor an ISO time with its offset ` +
        '(2026-11-27T09:00:00Z). Nothing was changed.',
      { field: 'until' },
    );
  }
  if (end <= now.getTime())
    throw new ActionError('invalid_request', `until: ${text} is not in the future; snooze until a later time. Nothing was changed.`, {
      field: 'until',
    });
  if (end - now.getTime() > MAX_SNOOZE_MS)
    throw new ActionError('invalid_request', `until: ${text} is more than 30 days away; snooze for at most 30d. Nothing was changed.`, {
      field: 'until',
    });
  return new Date(end).toISOString();
}

/** Whether the handoff is snoozed at `now`: out of "Assigned to me" and the stale badge until its snooze ends. */
export function isSnoozed(h: { snoozed_until?: string | null }, now: Date): boolean {
  return !!h.snoozed_until && Date.parse(h.snoozed_until) > now.getTime();
}
