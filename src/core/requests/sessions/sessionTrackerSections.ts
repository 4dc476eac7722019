// The AgentTracker.md sections AgentSync 0.3 owned at End Session, in 0.3's format: Last Session, Current Health,
// Hot Files, In Progress, Suggested Next Work. Each edit touches only its own section (found with findSection), so
// every other byte of the file is kept; a missing section is inserted above `## Agent Handoffs` (or appended).
import { displayAgent, normalizeAgentId } from '../../domain/agentId';
import { codeSpan, detectEol, findSection, HANDOFFS_HEADING, inlineText } from '../../domain/trackerRenderer';
import { HEALTH_CHECKS, type HealthReport } from './healthChecks';

export const LAST_SESSION = '## Last Session';
export const CURRENT_HEALTH = '## Current Health';
export const HOT_FILES = '## Hot Files';
export const IN_PROGRESS = '## In Progress';
export const SUGGESTED_NEXT = '## Suggested Next Work';

export const NOTHING_ACTIVE = '*Nothing active*';
const PLACEHOLDER = '-';
const MAX_HOT_FILES_SHOWN = 200;
const OUTPUT_TAIL_LINES = 20;

/** Edits the body lines of one section (without its heading, trailing blank lines removed). */
export function editSection(text: string, heading: string, edit: (body: string[]) => string[]): string {
  const eol = detectEol(text);
  const found = findSection(text, heading);
  if (found) {
    const body = text.slice(found.start, found.end).split(/\r?\n/).slice(1);
    trimTrailingBlank(body);
    return text.slice(0, found.start) + renderSection(heading, edit(body), eol, found.end === text.length) + text.slice(found.end);
  }
  const rendered = edit([]);
  const handoffs = findSection(text, HANDOFFS_HEADING);
  if (handoffs) return text.slice(0, handoffs.start) + renderSection(heading, rendered, eol, false) + text.slice(handoffs.start);
  const sep = text.length === 0 || text.endsWith(eol + eol) ? '' : text.endsWith(eol) ? eol : eol + eol;
  return text + sep + renderSection(heading, rendered, eol, true);
}

function trimTrailingBlank(lines: string[]): void {
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
}

function renderSection(heading: string, body: string[], eol: string, atEnd: boolean): string {
  const lines = [...body];
  trimTrailingBlank(lines);
  if (lines.length && lines[0].trim() !== '') lines.unshift('');
  return [heading, ...lines].join(eol) + eol + (atEnd ? '' : eol);
}

const isComment = (line: string) => /^\s*<!--.*-->\s*$/.test(line);

/** Keeps the humans' guidance comments at the top of a section (0.3's templates have one) and replaces the rest. */
function replaceBody(body: string[], content: string[]): string[] {
  const comments: string[] = [];
  for (const line of body) {
    if (isComment(line)) comments.push(line);
    else if (line.trim() !== '') break;
  }
  return comments.length ? ['', ...comments, '', ...content] : ['', ...content];
}

export interface LastSessionFields {
  agent: string;
  date: string;
  summary: string | null;
  branch: string | null;
  commit: string | null;
}

export function setLastSession(text: string, s: LastSessionFields): string {
  return editSection(text, LAST_SESSION, (body) =>
    replaceBody(body, [
      `- **Agent:** ${displayAgent(s.agent)}`,
      `- **Date:** ${s.date}`,
      `- **Summary:** ${s.summary?.trim() ? inlineText(s.summary, 2_000) : PLACEHOLDER}`,
      `- **Branch:** ${s.branch ? inlineText(s.branch, 200) : PLACEHOLDER}`,
      `- **Commit:** ${s.commit ? inlineText(s.commit, 200) : PLACEHOLDER}`,
    ]),
  );
}

/** Reads back the Last Session fields (for `status`, as 0.3's parseTracker did); null when the section is absent. */
export function readLastSession(text: string): Record<string, string> | null {
  const found = findSection(text, LAST_SESSION);
  if (!found) return null;
  const out: Record<string, string> = {};
  for (const line of text.slice(found.start, found.end).split(/\r?\n/)) {
    const m = /^- \*\*(Agent|Date|Summary|Branch|Commit):\*\* ?(.*)$/.exec(line.trim());
    if (m && !(m[1].toLowerCase() in out)) out[m[1].toLowerCase()] = m[2];
  }
  return out;
}

/** A fenced block that no line of `text` can close early, and no line of which looks like a Markdown heading. */
function fencedTail(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').trimEnd().split('\n').slice(-OUTPUT_TAIL_LINES);
  // eslint-disable-next-line no-control-regex
  const clean = lines.map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').replace(/^(\s{0,3})#/, ' $1#'));
  const longest = Math.max(0, ...clean.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, ...clean, fence];
}

export function setCurrentHealth(text: string, health: HealthReport): string {
  const rows = ['| Check  | Status |', '| ------ | ------ |'];
  for (const { label } of HEALTH_CHECKS) {
    const r = health[label];
    rows.push(`| ${label.padEnd(6)} | ${r.status}${r.timedOut ? ' (timed out)' : ''} |`);
  }
  for (const { label } of HEALTH_CHECKS) {
    const r = health[label];
    if (r.status === 'Fail' && r.output.trim()) rows.push('', `**${label} output:**`, ...fencedTail(r.output));
  }
  return editSection(text, CURRENT_HEALTH, (body) => replaceBody(body, rows));
}

export function setHotFiles(text: string, hotFiles: readonly string[]): string {
  const shown = hotFiles.slice(0, MAX_HOT_FILES_SHOWN).map((f) => `- ${codeSpan(f)}`);
  if (hotFiles.length > MAX_HOT_FILES_SHOWN)
    shown.push(`- … and ${hotFiles.length - MAX_HOT_FILES_SHOWN} more (state.json lists them all)`);
  return editSection(text, HOT_FILES, (body) => replaceBody(body, shown.length ? shown : ['*None*']));
}

/** `- [ ] Claude (2026-03-02T01:42:02.726Z): goal`, 0.3's In Progress line. */
export function inProgressLine(agent: string, startedAt: string, goal: string): string {
  return `- [ ] ${displayAgent(agent)} (${startedAt}): ${inlineText(goal)}`;
}

/** Whether a line is `agent`'s own In Progress entry: its name field, not a substring anywhere (0.3's bug). */
export function isInProgressLineOf(line: string, agent: string): boolean {
  const m = /^\s*[-*] \[[ xX]\] (.+?) \(/.exec(line);
  return m !== null && normalizeAgentId(m[1]) === agent;
}

const isPlaceholder = (line: string) => line.trim().toLowerCase() === NOTHING_ACTIVE.toLowerCase();

/** Removes `agent`'s own lines, then adds `add` (if any); every other line stays as it was. */
export function updateInProgress(text: string, agent: string, add: string | null): string {
  return editSection(text, IN_PROGRESS, (body) => {
    const kept = body.filter((l) => !isInProgressLineOf(l, agent) && !isPlaceholder(l));
    trimTrailingBlank(kept);
    if (add) {
      if (kept.length && isComment(kept[kept.length - 1])) kept.push('');
      kept.push(add);
    }
    if (!kept.some((l) => l.trim() !== '' && !isComment(l))) {
      if (kept.length) kept.push('');
      kept.push(NOTHING_ACTIVE);
    }
    return kept;
  });
}

export function appendSuggestedNext(text: string, nextWork: string): string {
  return editSection(text, SUGGESTED_NEXT, (body) => [...body, `- ${inlineText(nextWork, 2_000)}`]);
}
