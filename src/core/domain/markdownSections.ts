// Where a section of AgentTracker.md starts and ends, as a Markdown parser sees the file (markdown-it, CommonMark
// plus GitHub's tables, HTML blocks on), not as a regex guesses (docs/agentsync-documentation.md, "AgentTracker.md").
// A section starts at a top-level ATX heading (`## Title`, up to 3 spaces of indent, as CommonMark allows) whose
// text is exactly the title; it ends where the next heading of the same level or higher begins, of any form (ATX
// or setext, nested in a quote or a list or not). Lines inside code blocks, HTML blocks or indented 4+ are text.
import { parseBlocks } from './markdownBlockParser';

export interface SectionRange {
  start: number;
  end: number;
}

/** `## Title` -> level 2, `Title`; a heading string the callers write themselves, so a bad one is a bug. */
function parseHeading(heading: string): { level: number; title: string } {
  const m = /^(#{1,6}) (.+)$/.exec(heading);
  if (!m) throw new Error(`not an ATX heading: ${JSON.stringify(heading)}`);
  return { level: m[1].length, title: m[2] };
}

/** Offset of the start of each line; CommonMark ends lines at LF, CR or CRLF only (markdown-it normalizes to LF). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
  return starts;
}

/** Finds [start, end) of the section under `heading` (e.g. `## Agent Handoffs`); null when the file has none. */
export function findSection(text: string, heading: string): SectionRange | null {
  const { level, title } = parseHeading(heading);
  const tokens = parseBlocks(text);
  const starts = lineStarts(text);
  const at = (line: number) => (line < starts.length ? starts[line] : text.length);
  let startLine = -1;
  let quoteLine = -1; // first line of the top-level quote being read, -1 outside one
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.level === 0 && t.map && t.nesting >= 0) quoteLine = t.type === 'blockquote_open' ? t.map[0] : -1;
    if (t.type !== 'heading_open') continue;
    const depth = Number(t.tag.slice(1));
    if (startLine < 0) {
      const isAtx = t.markup.startsWith('#');
      if (t.level === 0 && isAtx && depth === level && tokens[i + 1]?.content === title) startLine = t.map![0];
    } else if (depth <= level && t.map![0] > startLine) {
      // A heading in a quote ends the section where the quote begins (the section never renders a quote, so all
      // of it is a human's). A heading in a list ends it on its own line: `   ## x` after the rendered list is,
      // per CommonMark, inside its last item, yet the human's text from that heading on is still theirs.
      return { start: at(startLine), end: at(quoteLine > startLine ? quoteLine : t.map![0]) };
    }
  }
  return startLine < 0 ? null : { start: at(startLine), end: text.length };
}
