// Renders the `## Agent Handoffs` section of AgentTracker.md (DESIGN §11) and splices it into the file,
// keeping everything outside the section byte for byte. Agent text can never add or break a line.
import { displayAgent } from './agentId';
import type { Handoff } from './handoffSchema';

export const HANDOFFS_HEADING = '## Agent Handoffs';

/** Folds every kind of line break and control character to a space, then escapes Markdown syntax. */
export function inlineText(text: string, max = 500): string {
  const folded = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  // Cut at a character boundary: never between the two halves of a surrogate pair.
  const end = max - 1 - (/[\ud800-\udbff]/.test(folded.charAt(max - 2)) ? 1 : 0);
  const cut = folded.length > max ? `${folded.slice(0, end)}…` : folded;
  return cut.replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`);
}

/** A code span that survives backticks inside the path (CommonMark: fence longer than any run inside). */
export function codeSpan(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each side unless the content is all spaces, so all-space names get no padding.
  const pad = /[^ ]/.test(clean) && (clean.startsWith('`') || clean.endsWith('`') || clean.startsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

export function renderHandoffLines(h: Handoff): string[] {
  const box = h.status === 'merged' ? '[x]' : '[ ]';
  const to = h.to_agents.length ? h.to_agents.map(displayAgent).join(',') : '-';
  const lines = [`- ${box} ${h.handoff_id} | from: ${displayAgent(h.from_agent)} | to: ${to} | mode: ${h.owner_mode} | status: ${h.status}`];
  const files = h.files.length ? h.files.slice(0, 20).map(codeSpan).join(', ') + (h.files.length > 20 ? `, … (+${h.files.length - 20})` : '') : '-';
  lines.push(`  - task: ${h.task_id ? inlineText(h.task_id, 200) : '-'} | files: ${files}`);
  const note = h.notes || h.summary;
  lines.push(`  - note: ${inlineText(note)}`);
  if (h.no_handoff_reason) lines.push(`  - skipped: ${inlineText(h.no_handoff_reason)}`);
  return lines;
}

/** Rendered lines per record, by object identity: records are replaced, never mutated, so only changed ones re-render. */
const renderedLines = new WeakMap<Handoff, string[]>();

function cachedLines(h: Handoff): string[] {
  let lines = renderedLines.get(h);
  if (!lines) renderedLines.set(h, (lines = renderHandoffLines(h)));
  return lines;
}

export function renderHandoffsSection(handoffs: readonly Handoff[], eol = '\n'): string {
  const body = handoffs.length ? handoffs.flatMap(cachedLines) : ['_No handoffs yet._'];
  return [HANDOFFS_HEADING, '', ...body, ''].join(eol) + eol;
}

/** Finds [start, end) of a `## Title` section: from its heading to the next heading of level 1 or 2, or the end. */
export function findSection(text: string, heading: string): { start: number; end: number } | null {
  // A heading starts a line; only CR and LF end lines (CommonMark), not U+2028/U+2029 as JavaScript's /m would.
  const re = /(?<![^\r\n])#{1,2}[ \t]+[^\r\n]*/g;
  let start = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (start < 0) {
      if (m[0].trimEnd() === heading) start = m.index;
    } else {
      return { start, end: m.index };
    }
  }
  return start < 0 ? null : { start, end: text.length };
}

export function detectEol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Replaces (or appends) a section, leaving every other byte of the file as it was. */
export function spliceSection(text: string, heading: string, renderedSection: string): string {
  const found = findSection(text, heading);
  if (found) return text.slice(0, found.start) + renderedSection + text.slice(found.end);
  const eol = detectEol(text);
  const sep = text.length === 0 ? '' : text.endsWith(eol + eol) ? '' : text.endsWith(eol) ? eol : eol + eol;
  return text + sep + renderedSection;
}

export function updateTrackerText(text: string, handoffs: readonly Handoff[]): string {
  // Appending after a lone CR would fuse it with the next LF into CRLF and change the line ending on the next pass:
  // complete it to CRLF first, so the output renders the same way again.
  const base = text.endsWith('\r') && !findSection(text, HANDOFFS_HEADING) ? `${text}\n` : text;
  return spliceSection(base, HANDOFFS_HEADING, renderHandoffsSection(handoffs, detectEol(base)));
}
