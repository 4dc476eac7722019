// Text an agent wrote (summaries, notes, reasons, file names) must not drive the terminal it is printed to: an
// ESC sequence can clear the screen (ESC [2J), write the clipboard (OSC 52) or retitle the window, and C1 codes
// (0x80-0x9f, e.g. 0x9b = CSI) do the same on some terminals; bidi controls (U+202E) reorder what follows so a
// name reads as another, and U+2028/U+2029 break a line on some terminals. They are shown as visible escapes instead
// (docs/agentsync-documentation.md, "The CLI").

/** C0 controls, DEL and C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the purpose
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the purpose
const C0_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f]/g;
const DEL_AND_C1 = /[\u007f-\u009f]/g;
/** Bidi controls (ALM, LRM, RLM, the embeddings, overrides and isolates) and the line and paragraph separators. */
const BIDI_AND_SEPARATORS = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\uNNNN`: visible, and a valid escape inside a JSON string, so `--json` output still parses to the same text. */
function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function hex(c: string): string {
  return c.charCodeAt(0).toString(16).padStart(2, '0');
}

/**
 * For one field inside a layout: every control, newlines too, becomes `\n`, `\r`, `\t` or `\xNN`; a bidi control or
 * line/paragraph separator becomes `\uNNNN`.
 */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS, (c) => NAMED[c] ?? `\\x${hex(c)}`).replace(BIDI_AND_SEPARATORS, unicodeEscape);
}

/**
 * For one status or log line that quotes agent text (a message, a request file's name): a newline or carriage return
 * in it becomes `\n` / `\r`, so the text cannot forge a line of its own; the other controls are left to terminalSafe.
 */
export function oneLine(text: string): string {
  return text.replace(/[\n\r]/g, (c) => NAMED[c]);
}

/**
 * For whole blocks about to be written (the CLI's one output path): the printer's own newlines and tabs stay;
 * other C0 controls become `\xNN`; DEL, C1, bidi controls and U+2028/U+2029 become `\uNNNN`, valid inside a JSON string,
 * so `--json` output stays parseable and means the same (JSON.stringify already escapes C0 but not DEL or C1).
 */
export function terminalSafe(text: string): string {
  return text
    .replace(C0_BUT_LAYOUT, (c) => `\\x${hex(c)}`)
    .replace(DEL_AND_C1, unicodeEscape)
    .replace(BIDI_AND_SEPARATORS, unicodeEscape);
}
