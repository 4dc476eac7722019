// Property test for the tracker renderer (docs/contract.md §11: agent-supplied text can never break the structure).
// Arbitrary agent text in every field the section shows, arbitrary human text around the section:
//  (a) the section has exactly 3 lines per handoff (4 when skipped), each with its expected prefix;
//  (b) re-parsing the file finds exactly N handoff header lines in the section;
//  (c) everything outside the section is byte-identical;
//  (d) rendering twice is stable;
//  (e) the section's place that spliceHandoffs reports is where a Markdown parser finds it, so the next render may
//      use it instead of parsing (derivedFiles.ts) and writes the same file;
// and, because files are shown as code spans: each one parses back (CommonMark rules) to its own name.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { checkWorkspaceRelative } from '../../../../src/core/domain/workspacePath';
import { handoffSchema, STATUSES, type Handoff } from '../../../../src/core/domain/handoffSchema';
import {
  adoptRenderedSection,
  findSection,
  HANDOFFS_HEADING,
  renderHandoffsSection,
  spliceHandoffs,
  updateTrackerText,
} from '../../../../src/core/domain/trackerRenderer';

/** 500 by default; AGENTSYNC_PROPERTY_RUNS=20000 for a deeper search. */
const RUNS = Number(process.env.AGENTSYNC_PROPERTY_RUNS) || 500;

/** Text fragments chosen to attack the format: every kind of line break, Markdown syntax, lookalike lines. */
const NASTY = [
  '\n',
  '\r',
  '\r\n',
  '\n\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u000b',
  '\u000c',
  '\t',
  '\u0000',
  '\u001b',
  '\u007f',
  '\u009b',
  '`',
  '``',
  '```',
  ' `',
  '` ',
  '#',
  '# ',
  '## ',
  '# Title',
  '## Agent Handoffs',
  '### Agent Handoffs',
  '\n## Agent Handoffs\n',
  '- [ ] HO-20260101-001 | from: Codex | to: Claude | mode: single | status: queued',
  '  - note: ',
  '  - task: ',
  ' | files: ',
  '|',
  '*',
  '**',
  '_',
  '__',
  '[',
  ']',
  '](x)',
  '<',
  '>',
  '<!--',
  '-->',
  '~',
  '~~',
  '\\',
  '\\`',
  '!',
  '&#10;',
  '&lt;',
  '1. ',
  '- ',
  '> ',
  ' ',
  '  ',
  '\u00a0',
  '\u200b',
  '\ufeff',
  'é',
  'ünïcödé',
  '😀',
  '👩‍👩‍👧',
  'plain words',
];

const fragment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }) },
);
const text = (maxFragments: number) => fc.array(fragment, { maxLength: maxFragments }).map((parts) => parts.join(''));

/** A file name the schema accepts (workspace-relative, no C0 controls), still full of backticks and oddities. */
const fileName = text(6).filter((p) => checkWorkspaceRelative(p) === null);

const AGENTS = ['codex', 'claude', 'copilot', 'claude-code', 'gpt_5', 'a1'];

interface HandoffInput {
  from: string;
  owners: string[];
  status: Handoff['status'];
  task: string | null;
  summary: string;
  notes: string;
  skip: string | null;
  files: string[];
}

const handoffInput: fc.Arbitrary<HandoffInput> = fc.record({
  from: fc.constantFrom(...AGENTS),
  owners: fc.uniqueArray(fc.constantFrom(...AGENTS), { minLength: 0, maxLength: 2 }),
  status: fc.constantFrom(...STATUSES),
  task: fc.option(text(10), { nil: null }),
  summary: text(20),
  notes: fc.oneof(text(20), fc.constant(''), text(120)),
  skip: fc.option(text(8), { nil: null }),
  files: fc.array(fileName, { maxLength: 24 }),
});

/** Cuts to the schema's limit without leaving half a surrogate pair (the input itself stays well-formed). */
const cut = (s: string, n: number) => (s.length <= n ? s : s.slice(0, /[\ud800-\udbff]/.test(s.charAt(n - 1)) ? n - 1 : n));

function buildHandoffs(inputs: HandoffInput[]): Handoff[] {
  return inputs.map((i, n) => {
    const mode = i.owners.length === 2 ? 'shared' : i.owners.length === 1 ? 'single' : 'auto';
    return handoffSchema.parse({
      handoff_id: `HO-20260221-${String(n + 1).padStart(3, '0')}`,
      task_id: i.task === null ? null : cut(i.task, 200),
      from_agent: i.from,
      to_agents: i.owners,
      owner_mode: mode,
      status: i.status,
      required_capabilities: mode === 'auto' ? ['review'] : [],
      summary: i.summary.length ? cut(i.summary, 2_000) : 'x',
      notes: i.notes,
      no_handoff_reason: i.skip ? i.skip : null,
      files: i.files,
      created_at: '2026-02-21T21:00:00.000Z',
      updated_at: '2026-02-21T21:00:00.000Z',
    });
  });
}

/** Markdown lines (CommonMark line endings: LF, CR, CRLF). */
const mdLines = (s: string) => s.split(/\r\n|\r|\n/);
/** Everything an editor or parser might treat as a line break. */
// eslint-disable-next-line no-control-regex -- the test looks for control characters on purpose
const ANY_BREAK = /\r\n|\r|\n|\u2028|\u2029|\u0085|\u000b|\u000c/;

const title = (id: string) =>
  id
    .split(/([-_])/)
    .map((p) => (p === '-' || p === '_' ? p : p[0].toUpperCase() + p.slice(1)))
    .join('');
const MD_SPECIAL = new Set(['`', '*', '_', '[', ']', '<', '>', '|', '~', '\\']);

/** True if `s` has a Markdown control character that is not backslash-escaped. */
function hasUnescaped(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      i++;
      if (i >= s.length) return true;
      continue;
    }
    if (MD_SPECIAL.has(s[i])) return true;
  }
  return false;
}

/** Parses a comma-separated list of CommonMark code spans; returns their contents, or throws. */
function parseCodeSpans(s: string): { spans: string[]; rest: string } {
  const spans: string[] = [];
  let i = 0;
  for (;;) {
    const open = /^`+/.exec(s.slice(i));
    if (!open) break;
    const fence = open[0];
    const start = i + fence.length;
    let j = start;
    let end = -1;
    while (j < s.length) {
      if (s[j] !== '`') {
        j++;
        continue;
      }
      let k = j;
      while (k < s.length && s[k] === '`') k++;
      if (k - j === fence.length) {
        end = j;
        break;
      }
      j = k;
    }
    if (end < 0) throw new Error(`unclosed code span at ${i} in ${JSON.stringify(s)}`);
    let content = s.slice(start, end);
    if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && !/^ +$/.test(content)) content = content.slice(1, -1);
    spans.push(content);
    i = end + fence.length;
    if (s.startsWith(', `', i)) i += 2;
    else break;
  }
  return { spans, rest: s.slice(i) };
}

/** What a file name looks like once breaks and control characters are folded to spaces. */
// eslint-disable-next-line no-control-regex -- the test looks for control characters on purpose
const folded = (p: string) => p.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');

/** Checks (a) on the section text and returns how many header lines it has. */
function checkSection(section: string, eol: string, hs: readonly Handoff[]): void {
  const lines = section.split(ANY_BREAK);
  assert.deepEqual(section.split(eol), lines, 'the only line breaks in the section are the file line ending');
  // eslint-disable-next-line no-control-regex -- the test looks for control characters on purpose
  const control = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;
  assert.equal(control.test(section.split(eol).join('')), false, 'no control characters');
  assert.equal(lines[0], HANDOFFS_HEADING);
  assert.equal(lines[1], '');
  assert.deepEqual(lines.slice(-2), ['', '']);
  const body = lines.slice(2, -2);
  if (hs.length === 0) {
    assert.deepEqual(body, ['_No handoffs yet._']);
    return;
  }
  const expectedCount = hs.reduce((n, h) => n + (h.no_handoff_reason ? 4 : 3), 0);
  assert.equal(body.length, expectedCount, 'exactly 3 lines per handoff, 4 when skipped');
  let at = 0;
  for (const h of hs) {
    const to = h.to_agents.length ? h.to_agents.map(title).join(',') : '-';
    assert.equal(
      body[at++],
      `- ${h.status === 'merged' ? '[x]' : '[ ]'} ${h.handoff_id} | from: ${title(h.from_agent)} | to: ${to} | mode: ${h.owner_mode} | status: ${h.status}`,
    );

    const taskLine = body[at++];
    assert.ok(taskLine.startsWith('  - task: '), taskLine);
    const taskAndFiles = taskLine.slice('  - task: '.length);
    const sep = taskAndFiles.indexOf(' | files: ');
    assert.ok(sep >= 0, taskLine);
    const task = taskAndFiles.slice(0, sep);
    assert.equal(hasUnescaped(task), false, `task is escaped: ${JSON.stringify(task)}`);
    const files = taskAndFiles.slice(sep + ' | files: '.length);
    if (h.files.length === 0) {
      assert.equal(files, '-');
    } else {
      const { spans, rest } = parseCodeSpans(files);
      assert.deepEqual(spans, h.files.slice(0, 20).map(folded), 'each file parses back to its own name');
      assert.equal(rest, h.files.length > 20 ? `, … (+${h.files.length - 20})` : '');
    }

    const noteLine = body[at++];
    assert.ok(noteLine.startsWith('  - note: '), noteLine);
    assert.equal(hasUnescaped(noteLine.slice('  - note: '.length)), false, `note is escaped: ${JSON.stringify(noteLine)}`);
    if (h.no_handoff_reason) {
      const skipLine = body[at++];
      assert.ok(skipLine.startsWith('  - skipped: '), skipLine);
      assert.equal(hasUnescaped(skipLine.slice('  - skipped: '.length)), false);
    }
  }
}

const HEADER_LINE = /^- \[[ x]\] HO-\d{8}-\d{3,6} \| from: /;

function countHeaders(file: string): number {
  const found = findSection(file, HANDOFFS_HEADING);
  assert.ok(found, 'the section is found again');
  return mdLines(file.slice(found.start, found.end)).filter((l) => HEADER_LINE.test(l)).length;
}

/** Human text: anything, as long as a Markdown parser finds no heading of ours in it. */
const humanText = text(25).filter((t) => findSection(t, HANDOFFS_HEADING) === null);
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
/** The human text after the section starts with a level-1 or level-2 heading (that is where the section ends). */
const afterText = fc.oneof(
  fc.constant(''),
  fc
    .tuple(
      fc.constantFrom('## Sessions', '# Appendix', '## Agent Handoffs (archive)', '##  Notes ', '# '),
      fc.string({ unit: 'grapheme-ascii', maxLength: 10 }).filter((s) => !/[\r\n]/.test(s)),
      lineEnd,
      humanText,
    )
    .filter(([h, t]) => `${h}${t}`.trimEnd() !== HANDOFFS_HEADING)
    .map(([h, t, e, rest]) => `${h}${t}${e}${rest}`),
);
/** What was in the section before: an old rendering, or anything without a level-1/2 heading line. */
const oldSectionBody = fc.oneof(
  fc.constant('_No handoffs yet._\n'),
  text(25).filter((t) => !mdLines(t).some((l) => /^ {0,3}#{1,2}([ \t]|$)/.test(l))),
);

function isWellFormed(s: string): boolean {
  return Buffer.from(s, 'utf8').toString('utf8') === s;
}

/** (e): the reported section is the parsed one, and rendering other handoffs into it by that place equals a parse. */
function assertSectionKnown(file: string, hs: Handoff[]): void {
  const spliced = spliceHandoffs(file, hs);
  assert.deepEqual(spliced.section, findSection(spliced.text, HANDOFFS_HEADING));
  const next = [...hs.slice(1), ...hs.slice(0, 1)].reverse();
  assert.equal(spliceHandoffs(spliced.text, next, spliced.section).text, updateTrackerText(spliced.text, next));
}

describe('tracker renderer: properties over arbitrary agent and human text', function () {
  this.timeout(60_000);
  const handoffs = fc.array(handoffInput, { maxLength: 5 }).map(buildHandoffs);

  it(`a file with the section: (a) structure, (b) N headers, (c) human text byte-identical, (d) stable [${RUNS} runs]`, () => {
    fc.assert(
      fc.property(handoffs, humanText, lineEnd, oldSectionBody, lineEnd, afterText, (hs, before0, headEnd, oldBody, bodyEnd, after) => {
        // The section heading starts a line: the human text before it is empty or ends with a line break.
        const before = before0.length === 0 || /[\r\n]$/.test(before0) ? before0 : before0 + headEnd;
        const old = `${HANDOFFS_HEADING}${headEnd}${oldBody}${/[\r\n]$/.test(oldBody) ? '' : bodyEnd}`;
        const file = before + old + after;
        const eol = file.includes('\r\n') ? '\r\n' : '\n';
        // Only files where a Markdown parser sees the section where it was built: human text that opens a fence
        // swallowing our heading, or an old body with a heading of its own, are cases the unit tests cover.
        const found = findSection(file, HANDOFFS_HEADING);
        fc.pre(found !== null && found.start === before.length && found.end === before.length + old.length);

        const out = updateTrackerText(file, hs);
        // (c)
        assert.ok(out.startsWith(before), 'the text before the section is byte-identical');
        assert.ok(out.endsWith(after), 'the text after the section is byte-identical');
        const section = out.slice(before.length, out.length - after.length);
        // (a)
        checkSection(section, eol, hs);
        // (b)
        assert.equal(countHeaders(out), hs.length);
        // (d)
        assert.equal(updateTrackerText(out, hs), out);
        // (e)
        assertSectionKnown(file, hs);
        if (isWellFormed(file)) assert.ok(isWellFormed(out), 'well-formed text stays well-formed (no split surrogate pairs)');
      }),
      { numRuns: RUNS },
    );
  });

  it(`a file without the section: the section is appended, the human text kept, (a)-(d) hold [${RUNS} runs]`, () => {
    fc.assert(
      fc.property(handoffs, humanText, (hs, human) => {
        let out: string;
        try {
          out = updateTrackerText(human, hs);
        } catch (e) {
          // Refused only when the human text ends inside an unclosed block that would swallow the section.
          assert.match((e as Error).message, /never closed/);
          assert.equal(
            findSection(`${human}\n\n${HANDOFFS_HEADING}\n`, HANDOFFS_HEADING),
            null,
            'refused only when the heading would be swallowed',
          );
          return;
        }
        // (c)
        assert.ok(out.startsWith(human), 'the human text is a byte-identical prefix');
        const appended = out.slice(human.length);
        // A file ending in a lone CR becomes CRLF: the appended line break completes that CR.
        const eol = human.includes('\r\n') || human.endsWith('\r') ? '\r\n' : '\n';
        const sectionStart = appended.indexOf(HANDOFFS_HEADING);
        assert.ok(sectionStart >= 0);
        assert.match(appended.slice(0, sectionStart), /^(\r\n|\n)*$/, 'only line breaks separate it from the human text');
        // (a)
        checkSection(appended.slice(sectionStart), eol, hs);
        // (b)
        assert.equal(countHeaders(out), hs.length);
        // (d)
        assert.equal(updateTrackerText(out, hs), out);
        // (e)
        assertSectionKnown(human, hs);
      }),
      { numRuns: RUNS },
    );
  });

  it(`a section is adopted as the rendering of the handoffs it was rendered from, and only of those [${RUNS} runs]`, () => {
    fc.assert(
      fc.property(handoffs, fc.constantFrom('\n', '\r\n'), (hs, eol) => {
        const section = renderHandoffsSection(hs, eol);
        // Copies with other content but the same ids: once adopted, the old blocks are what they render to.
        const copies = hs.map((h) => ({ ...h, summary: `${h.summary} (changed)`, notes: '' }));
        assert.equal(adoptRenderedSection(section, copies, eol), hs.length > 0);
        if (hs.length > 0) assert.equal(renderHandoffsSection(copies, eol), section, 'the blocks were reused');
        // Another order, one handoff more or less: nothing is adopted.
        if (hs.length > 1 && hs[0].handoff_id !== hs[hs.length - 1].handoff_id) {
          const reversed = [...hs].reverse().map((h) => ({ ...h }));
          assert.equal(adoptRenderedSection(section, reversed, eol), false);
        }
        assert.equal(adoptRenderedSection(section, [...hs.map((h) => ({ ...h })), ...hs.slice(0, 1)], eol), false);
      }),
      { numRuns: RUNS },
    );
  });

  it(`a long note never splits a character when cut [${RUNS} runs]`, () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'é', '😀', '👩‍👩‍👧', ' '), { minLength: 480, maxLength: 700 }), (parts) => {
        const [h] = buildHandoffs([
          { from: 'codex', owners: ['claude'], status: 'queued', task: null, summary: 's', notes: parts.join(''), skip: null, files: [] },
        ]);
        const out = updateTrackerText('', [h]);
        assert.ok(isWellFormed(out), JSON.stringify(out.slice(-40)));
      }),
      { numRuns: RUNS },
    );
  });
});
