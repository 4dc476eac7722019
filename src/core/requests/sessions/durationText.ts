// How long a session has been open, for people: "45 min", "2 h", "3 h 20 min". One spelling for the zero-touch
// summary and the editor's session reminders.
export function durationText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 60_000) return 'less than a minute';
  const minutes = Math.floor(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}
