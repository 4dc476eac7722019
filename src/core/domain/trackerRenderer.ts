// Renders the `## Agent Handoffs` section of AgentTracker.md (docs/agentsync-documentation.md) and splices it into
// the file, keeping everything outside the section byte for byte (section bounds: markdownSections.ts).
// Agent text can never add or break a line.
import type { PassGroup } from './passGroup';
import { displayAgent } from './agentId';
import type { Handoff } from './handoffSchema';
import { findSection, type SectionRange } from './markdownSections';
import { renderChainDiagrams } from './trackerChainDiagram';

export { findSection } from './markdownSections';

export const HANDOFFS_HEADING = '## Agent Handoffs';

/** Folds every kind of line break and control character to a space, then escapes Markdown syntax. */
export function inlineText(text: string, max = 500): string {
  const folded = text
    // eslint-disable-next-line no-control-regex -- matching control characters is the purpose
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
  // eslint-disable-next-line no-control-regex -- matching control characters is the purpose
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
  const lines = [
    `- ${box} ${h.handoff_id} | from: ${displayAgent(h.from_agent)} | to: ${to} | mode: ${h.owner_mode} | status: ${h.status}`,
  ];
  const files = h.files.length
    ? h.files.slice(0, 20).map(codeSpan).join(', ') + (h.files.length > 20 ? `, … (+${h.files.length - 20})` : '')
    : '-';
  lines.push(`  - task: ${h.task_id ? inlineText(h.task_id, 200) : '-'} | files: ${files}`);
  const note = h.notes || h.summary;
  lines.push(`  - note: ${inlineText(note)}`);
  if (h.no_handoff_reason) lines.push(`  - skipped: ${inlineText(h.no_handoff_reason)}`);
  const request = requestLine(h);
  if (request) lines.push(`  - request: ${request}`);
  // A fan-out (docs/contract.md §6): its children and its joined return share a group, named so a reader can match them.
  if (h.group) lines.push(`  - group: ${groupText(h.group)}`);
  return lines;
}

function groupText(g: PassGroup): string {
  return `${g.join ? `joined return of ${g.size} parallel passes` : `one of ${g.size} parallel passes`} (group ${codeSpan(g.id)})`;
}

/** The request side (docs/contract.md §6) in one line (phase, feature, spec, expected output, constraints, instructions), or null. */
function requestLine(h: Handoff): string | null {
  const r = h.request;
  const parts = [
    h.phase ? `phase: ${h.phase}` : '',
    r?.feature ? `feature: ${inlineText(r.feature, 200)}` : '',
    r?.spec_path ? `spec: ${codeSpan(r.spec_path)}` : '',
    r?.expected_output ? `expects: ${inlineText(r.expected_output)}` : '',
    r?.constraints?.length ? `constraints: ${inlineText(r.constraints.join('; '), 300)}` : '',
    r?.instructions ? `instructions: ${inlineText(r.instructions, 300)}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' | ') : null;
}

/** The cache of a line ending (a tracker is written with CRLF if it already had one, else LF). */
function forEol<T>(caches: { '\n': T; '\r\n': T }, eol: string): T {
  return eol === '\r\n' ? caches['\r\n'] : caches['\n'];
}

/** A record's lines, each ended, per line ending, by object identity: records are replaced, never mutated. */
const renderedBlocks = { '\n': new WeakMap<Handoff, string>(), '\r\n': new WeakMap<Handoff, string>() };

function cachedBlock(h: Handoff, eol: string): string {
  const cache = forEol(renderedBlocks, eol);
  let block = cache.get(h);
  if (block === undefined) cache.set(h, (block = renderHandoffLines(h).join(eol) + eol));
  return block;
}

/** The same blocks as UTF-8 bytes: a process that keeps writing the tracker encodes only the records that changed. */
const blockBytes = { '\n': new WeakMap<Handoff, Buffer>(), '\r\n': new WeakMap<Handoff, Buffer>() };

function cachedBlockBytes(h: Handoff, eol: string): Buffer {
  const cache = forEol(blockBytes, eol);
  let bytes = cache.get(h);
  if (bytes === undefined) cache.set(h, (bytes = Buffer.from(cachedBlock(h, eol))));
  return bytes;
}

/**
 * renderHandoffsSection's text as UTF-8 parts (their concatenation is exactly its bytes), and the text's length in
 * UTF-16 units: derivedFiles.ts splices these into the bytes of a tracker it wrote itself, without decoding it.
 */
export function renderHandoffsSectionParts(handoffs: readonly Handoff[], eol: string): { parts: Buffer[]; length: number } {
  if (handoffs.length === 0) {
    const text = renderHandoffsSection(handoffs, eol);
    return { parts: [Buffer.from(text)], length: text.length };
  }
  const { head, tail } = sectionFrame(handoffs, eol);
  const parts: Buffer[] = [Buffer.from(head)];
  let length = head.length + tail.length;
  for (const h of handoffs) {
    parts.push(cachedBlockBytes(h, eol));
    length += cachedBlock(h, eol).length;
  }
  parts.push(Buffer.from(tail));
  return { parts, length };
}

/** The version of the section's layout: a section written by another version is never adopted (adoptRenderedSection). */
export const SECTION_FORMAT = 1;

/**
 * Takes a section this renderer wrote for `handoffs` (in this order) as the rendering of each of them, so a process
 * that just started renders only the handoffs it changes (derivedFiles.ts adopts only a section it can prove is
 * that one). Adopts nothing, and answers false, unless the section splits into one block per handoff, each starting
 * with its own id. A block starts with "- [ ] HO-…" or "- [x] HO-…"; agent text never starts a line.
 */
export function adoptRenderedSection(section: string, handoffs: readonly Handoff[], eol: string): boolean {
  const { head, tail } = sectionFrame(handoffs, eol);
  if (handoffs.length === 0 || !section.startsWith(head) || !section.endsWith(eol + tail)) return false;
  const body = section.slice(head.length, section.length - tail.length);
  const blocks: string[] = [];
  let at = 0;
  for (const h of handoffs) {
    if (!body.startsWith(`- [ ] ${h.handoff_id} |`, at) && !body.startsWith(`- [x] ${h.handoff_id} |`, at)) return false;
    const next = body.indexOf(`${eol}- [`, at);
    const end = next < 0 ? body.length : next + eol.length;
    blocks.push(body.slice(at, end));
    at = end;
  }
  if (at !== body.length) return false;
  const cache = forEol(renderedBlocks, eol);
  const bytesCache = forEol(blockBytes, eol);
  handoffs.forEach((h, i) => {
    cache.set(h, blocks[i]);
    bytesCache.delete(h);
  });
  return true;
}

export function renderHandoffsSection(handoffs: readonly Handoff[], eol = '\n'): string {
  if (handoffs.length === 0) return [HANDOFFS_HEADING, '', '_No handoffs yet._', ''].join(eol) + eol;
  const { head, tail } = sectionFrame(handoffs, eol);
  let body = '';
  for (const h of handoffs) body += cachedBlock(h, eol);
  return head + body + tail;
}

/**
 * What a section with handoffs has around their blocks: the heading and a blank line before; after, the `### Chains`
 * diagrams (a blank line, then the block) when a chain qualifies, and the closing blank line.
 */
function sectionFrame(handoffs: readonly Handoff[], eol: string): { head: string; tail: string } {
  const diagrams = renderChainDiagrams(handoffs);
  return { head: HANDOFFS_HEADING + eol + eol, tail: (diagrams.length ? eol + diagrams.join(eol) + eol : '') + eol };
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
  const appended = text + sep + renderedSection;
  // A file that ends inside an unclosed code fence or HTML comment would swallow the appended heading: the next
  // write would not find it and append another, forever. Refuse instead, saying what to close.
  if (!findSection(appended, heading)) {
    throw new Error(
      `AgentTracker.md ends inside a block that is never closed (a \`\`\` or ~~~ code fence, or an HTML comment or tag), so a \`${heading}\` ` +
        'section added at the end would be part of it. Close that block (or add the heading yourself above it); nothing was changed',
    );
  }
  return appended;
}

export function updateTrackerText(text: string, handoffs: readonly Handoff[]): string {
  return spliceHandoffs(text, handoffs).text;
}

/**
 * The tracker with its `## Agent Handoffs` section rendered from `handoffs`, and where that section now is.
 * `known`: where the section is in `text`, when the caller can prove `text` is one this function returned (it
 * spares the Markdown parse, the largest cost of a write to a big tracker; derivedFiles.ts keeps the proof).
 */
export function spliceHandoffs(text: string, handoffs: readonly Handoff[], known?: SectionRange): { text: string; section: SectionRange } {
  const found = known ?? findSection(text, HANDOFFS_HEADING);
  if (found) {
    const rendered = renderHandoffsSection(handoffs, detectEol(text));
    return {
      text: text.slice(0, found.start) + rendered + text.slice(found.end),
      section: { start: found.start, end: found.start + rendered.length },
    };
  }
  // Appending after a lone CR would fuse it with the next LF into CRLF and change the line ending on the next pass:
  // complete it to CRLF first, so the output renders the same way again.
  const base = text.endsWith('\r') ? `${text}\n` : text;
  const rendered = renderHandoffsSection(handoffs, detectEol(base));
  const out = spliceSection(base, HANDOFFS_HEADING, rendered);
  return { text: out, section: { start: out.length - rendered.length, end: out.length } };
}
