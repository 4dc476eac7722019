// The AgentSync section of the instruction files the agents read (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md,
// GEMINI.md: each vendor module in src/core/hooks/vendors/ names its own) (docs/contract.md §10a, docs/agentsync-documentation.md
// "Instruction files"): one marked block per file, created after the user's text, replaced in place on the next run.
// Everything outside the markers is the user's and is kept byte for byte.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertRegularOrMissing, writeFileAtomic } from '../disk/atomicFile';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import { ActionError } from '../domain/errors';
import { dayStamp } from '../domain/handoffIds';
import { readTemplate } from './templates';
import { INSTRUCTION_FILES } from '../hooks/vendors';

export const SECTION_START = '<!-- agentsync:start -->';
export const SECTION_END = '<!-- agentsync:end -->';

export { INSTRUCTION_FILES } from '../hooks/vendors';

/**
 * The section text. The examples' handoff ids carry `day` (YYYYMMDD), so in a workspace initialized that day the
 * examples, sent in order, work exactly as written (the first handoff created that day is HO-<day>-001).
 */
export function instructionSection(day: string): string {
  const body = readTemplate('agent-instructions.md').replace(/\s+$/, '').replaceAll('{{date}}', day);
  const note = '<!-- Written by `agentsync init`; edit outside these markers, this block is replaced on the next init. -->';
  return `${SECTION_START}\n${note}\n${body}\n${SECTION_END}`;
}

/**
 * `text` with the marked section set to `section`: replaced between the markers when present, appended after the
 * user's text with one blank line when absent. A start marker without its end (or two sections) is refused: guessing
 * where the section ends could delete the user's text.
 */
export function upsertMarkedSection(text: string, section: string, file: string): string {
  const starts = occurrences(text, SECTION_START);
  const ends = occurrences(text, SECTION_END);
  if (starts.length === 0 && ends.length === 0) {
    if (text.length === 0) return `${section}\n`;
    const sep = text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    return `${text}${sep}${section}\n`;
  }
  if (starts.length !== 1 || ends.length !== 1 || ends[0] < starts[0]) {
    throw new ActionError(
      'marker_broken',
      `${file} has ${starts.length} "${SECTION_START}" and ${ends.length} "${SECTION_END}" marker(s) (expected one of each, start first); ` +
        'AgentSync will not guess where its section ends. Fix or remove the markers, then run init again. Nothing was changed.',
      { path: file, starts: starts.length, ends: ends.length },
    );
  }
  return text.slice(0, starts[0]) + section + text.slice(ends[0] + SECTION_END.length);
}

function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

export interface SectionReport {
  /** Workspace-relative paths whose section was created or replaced with new text. */
  written: string[];
  /** Paths whose section was already current (nothing written). */
  unchanged: string[];
}

/** The example day of a section already in `text`, so a later init keeps it (and the file) unchanged. */
function sectionDay(text: string): string | null {
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END, start);
  if (start < 0 || end < 0) return null;
  return /HO-(\d{8})-\d{3}/.exec(text.slice(start, end))?.[1] ?? null;
}

/** Writes the section into every instruction file; all files are checked before any is written. */
export function writeInstructionSections(root: string, now: Date = new Date()): SectionReport {
  const plans: { rel: string; file: string; next: string; changed: boolean }[] = [];
  for (const rel of INSTRUCTION_FILES) {
    const file = path.join(root, rel);
    assertSafeDirectory(root, path.dirname(file)); // a committed `.github` link must not carry our write elsewhere
    assertRegularOrMissing(file);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const next = upsertMarkedSection(current, instructionSection(sectionDay(current) ?? dayStamp(now)), rel);
    plans.push({ rel, file, next, changed: next !== current });
  }
  const report: SectionReport = { written: [], unchanged: [] };
  for (const p of plans) {
    if (!p.changed) {
      report.unchanged.push(p.rel);
      continue;
    }
    ensureSafeDirectory(root, path.dirname(p.file));
    writeFileAtomic(p.file, p.next);
    report.written.push(p.rel);
  }
  return report;
}
