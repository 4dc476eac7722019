// Text that agents wrote (summaries, notes, file names, decisions), made safe to place in another agent's context
// (docs/agentsync-documentation.md, "Hook packs": the briefing is data). Folded onto one line: line breaks of
// every kind show as ` ⏎ `, and other control, bidi and invisible format characters as a space, so agent text can
// never start a line of its own (a forged heading or a "SYSTEM:" line); runs of three or more hyphens become
// two, so it can never contain the `-----` lines that open and close a data block; then cut to `maxChars`.

// eslint-disable-next-line no-control-regex -- matching control characters is the purpose
const LINE_BREAKS = /\r\n|[\n\r\u0085\u2028\u2029\u000b\u000c]/g;
// C0 and C1 controls, DEL, zero-width and bidi controls (U+200B-U+200F, U+202A-U+202E, U+2060-U+2069), BOM.
// eslint-disable-next-line no-control-regex -- matching control characters is the purpose
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export function foldAgentText(text: string, maxChars: number): string {
  const folded = text.replace(LINE_BREAKS, ' ⏎ ').replace(INVISIBLE, ' ').replace(/-{3,}/g, '--').replace(/ {2,}/g, ' ').trim();
  return folded.length > maxChars ? `${folded.slice(0, maxChars - 1)}…` : folded;
}
