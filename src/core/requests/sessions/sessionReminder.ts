// When the editor reminds an agent that its session is still open (setting agentsync.sessionReminderHours;
// docs/agentsync-documentation.md, "Session reminders"). Pure, so the rule is tested without a clock.

/**
 * The time (ms since epoch) of the next reminder for a session started at `startedAt`: `hours` after the start, or
 * `hours` after the last prompt about it (a reminder, its snooze, or the start-up question). Null when reminders are
 * off (`hours` 0, negative or not a number) or the start time cannot be read.
 */
export function nextReminderAt(startedAt: string, hours: number, lastPromptAt: number | null): number | null {
  if (!Number.isFinite(hours) || hours <= 0) return null;
  const interval = hours * 3_600_000;
  if (lastPromptAt !== null) return lastPromptAt + interval;
  const start = Date.parse(startedAt);
  return Number.isFinite(start) ? start + interval : null;
}
