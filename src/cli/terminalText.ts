// Text an agent wrote (summaries, notes, reasons, file names) must not drive the terminal it is printed to: an
// ESC sequence can clear the screen (ESC [2J), write the clipboard (OSC 52) or retitle the window, and C1 codes
// (0x80-0x9f, e.g. 0x9b = CSI) do the same on some terminals. They are shown as visible escapes instead
// (docs/agentsync-documentation.md, "The CLI").

/** C0 controls, DEL and C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the purpose
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the purpose
const C0_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f]/g;
const DEL_AND_C1 = /[\u007f-\u009f]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function hex(c: string): string {
  return c.charCodeAt(0).toString(16).padStart(2, '0');
}

/** For one field inside a layout: every control, newlines too, becomes `\n`, `\r`, `\t` or `\xNN`. */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS, (c) => NAMED[c] ?? `\\x${hex(c)}`);
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
 * other C0 controls become `\xNN`; DEL and C1 become `\u00NN`, which is also a valid escape inside a JSON string,
 * so `--json` output stays parseable and means the same (JSON.stringify already escapes C0 but not DEL or C1).
 */
export function terminalSafe(text: string): string {
  return text.replace(C0_BUT_LAYOUT, (c) => `\\x${hex(c)}`).replace(DEL_AND_C1, (c) => `\\u00${hex(c)}`);
}
