// The `## Agent Handoffs` section of AgentTracker.md (docs/contract.md §11): its exact format, the humans' text
// kept byte for byte, CRLF files, a missing section appended; on disk through the store as well.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import {
  codeSpan,
  inlineText,
  renderHandoffLines,
  renderHandoffsSection,
  updateTrackerText,
} from '../../../../src/core/domain/trackerRenderer';
import { trackerTemplate } from '../../../../src/core/workspace/workspaceInit';
import { makeHandoff, SEED_EXAMPLE_STORE, SEED_EXAMPLE_TRACKER_LINES } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const seedRecord = () => StoreSnapshot.parse(SEED_EXAMPLE_STORE).handoffs[0];

describe('tracker renderer (docs/contract.md §11)', () => {
  after(removeTempDirs);

  describe('format', () => {
    it('renders the seed example exactly as the plan shows it', () => {
      assert.deepEqual(renderHandoffLines(seedRecord()), SEED_EXAMPLE_TRACKER_LINES);
    });

    it('the whole section: heading, blank line, the lines, a blank line', () => {
      assert.equal(renderHandoffsSection([seedRecord()]), ['## Agent Handoffs', '', ...SEED_EXAMPLE_TRACKER_LINES, '', ''].join('\n'));
      assert.equal(renderHandoffsSection([]), '## Agent Handoffs\n\n_No handoffs yet._\n\n');
    });

    it('merged is checked; no owners shows "-"; no task or files show "-"; the summary stands in for empty notes', () => {
      const h = makeHandoff({
        status: 'merged',
        to_agents: [],
        owner_mode: 'auto',
        required_capabilities: ['x'],
        task_id: null,
        files: [],
        notes: '',
        summary: 'Only a summary',
      });
      assert.deepEqual(renderHandoffLines(h), [
        '- [x] HO-20260221-001 | from: Codex | to: - | mode: auto | status: merged',
        '  - task: - | files: -',
        '  - note: Only a summary',
      ]);
    });

    it('a skipped handoff gets a fourth line with the reason', () => {
      const h = makeHandoff({ status: 'blocked', no_handoff_reason: 'docs only\nno code' });
      assert.deepEqual(renderHandoffLines(h).slice(3), ['  - skipped: docs only no code']);
    });

    it('a fan-out child and its joined return each get a group line naming the group', () => {
      const id = '01JGR0UP000000000000000000';
      const child = renderHandoffLines(makeHandoff({ group: { id, size: 3 } }));
      const join = renderHandoffLines(makeHandoff({ group: { id, size: 3, join: true } }));
      assert.equal(child.at(-1), `  - group: one of 3 parallel passes (group \`${id}\`)`);
      assert.equal(join.at(-1), `  - group: joined return of 3 parallel passes (group \`${id}\`)`);
      assert.ok(!renderHandoffLines(makeHandoff({})).some((l) => l.includes('group:')));
    });

    it('agent ids are shown in Title Case, keeping separators', () => {
      const h = makeHandoff({ from_agent: 'claude-code', to_agents: ['gpt_5', 'copilot'], owner_mode: 'shared' });
      assert.match(renderHandoffLines(h)[0], /from: Claude-Code \| to: Gpt_5,Copilot \|/);
    });

    it('agent text cannot add lines or Markdown: breaks folded, control characters escaped', () => {
      const h = makeHandoff({
        task_id: 'AS-1 | <b>x</b>',
        notes:
          'line one\r\nline two\rthree\u2028four\u0085five\n## Heading\n- [ ] HO-20260101-001 | fake *bold* _em_ [link](x) `code` ~strike~ \\',
      });
      const lines = renderHandoffLines(h);
      assert.equal(lines.length, 3);
      assert.equal(lines[1], '  - task: AS-1 \\| \\<b\\>x\\</b\\> | files: `src/auth/session.ts`');
      assert.equal(
        lines[2],
        '  - note: line one line two three four five ## Heading - \\[ \\] HO-20260101-001 \\| fake \\*bold\\* \\_em\\_ \\[link\\](x) \\`code\\` ' +
          '\\~strike\\~ \\\\',
      );
    });

    it('file names with backticks get a longer fence; leading backticks or spaces are padded', () => {
      assert.equal(codeSpan('a`b.ts'), '``a`b.ts``');
      assert.equal(codeSpan('x``y'), '```x``y```');
      assert.equal(codeSpan('`start.ts'), '`` `start.ts ``');
      assert.equal(codeSpan('end`'), '`` end` ``');
      assert.equal(codeSpan(' lead.ts'), '`  lead.ts `');
      assert.equal(codeSpan('new\nline.ts'), '`new line.ts`');
    });

    it('long notes are cut at 500 characters with an ellipsis; more than 20 files are counted', () => {
      const h = makeHandoff({ notes: 'n'.repeat(600), files: Array.from({ length: 23 }, (_, i) => `f${i}.ts`) });
      const [, files, note] = renderHandoffLines(h);
      assert.equal(note, `  - note: ${'n'.repeat(499)}…`);
      assert.match(files, /`f19\.ts`, … \(\+3\)$/);
      assert.equal(inlineText('  spaced   out  '), 'spaced out');
    });
  });

  describe('splicing into AgentTracker.md', () => {
    const human = '# Agent Tracker\n\nHumans wrote this.  Trailing spaces stay.  \n\n## Notes\n\n- keep me\n';
    const after = '## Later section\n\nMore human text.\n### A subheading\n';

    it('replaces only the section; the text before and after is kept byte for byte', () => {
      const text = `${human}## Agent Handoffs\n\nold junk\n- [ ] HO-20200101-001 | stale\n\n${after}`;
      const out = updateTrackerText(text, [seedRecord()]);
      assert.equal(out, `${human}${renderHandoffsSection([seedRecord()])}${after}`);
    });

    it('a level-3 heading inside the section belongs to the section and is replaced', () => {
      const text = `${human}## Agent Handoffs\n\n### old sub\n\n${after}`;
      assert.equal(updateTrackerText(text, []), `${human}${renderHandoffsSection([])}${after}`);
    });

    it('the section at the very end of the file, without a final newline', () => {
      const text = `${human}## Agent Handoffs\n- old`;
      assert.equal(updateTrackerText(text, [seedRecord()]), human + renderHandoffsSection([seedRecord()]));
    });

    it('CRLF files get CRLF lines and keep their own bytes', () => {
      const crlfHuman = human.replace(/\n/g, '\r\n');
      const crlfAfter = after.replace(/\n/g, '\r\n');
      const text = `${crlfHuman}## Agent Handoffs\r\n\r\n- old\r\n\r\n${crlfAfter}`;
      const out = updateTrackerText(text, [seedRecord()]);
      assert.equal(out, `${crlfHuman}${['## Agent Handoffs', '', ...SEED_EXAMPLE_TRACKER_LINES, '', ''].join('\r\n')}${crlfAfter}`);
      assert.equal(out.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF introduced');
    });

    it('a missing section is appended after one blank line, in the file line ending', () => {
      assert.equal(updateTrackerText('# T\n\nnotes\n', []), '# T\n\nnotes\n\n' + renderHandoffsSection([]));
      assert.equal(updateTrackerText('# T\n\nnotes\n\n', []), '# T\n\nnotes\n\n' + renderHandoffsSection([]));
      assert.equal(updateTrackerText('# T\n\nnotes', []), '# T\n\nnotes\n\n' + renderHandoffsSection([]));
      assert.equal(updateTrackerText('# T\r\n\r\nnotes\r\n', []), '# T\r\n\r\nnotes\r\n\r\n' + renderHandoffsSection([], '\r\n'));
      assert.equal(updateTrackerText('', []), renderHandoffsSection([]));
    });

    it('a heading that only looks like ours (level 3, extra words) is not ours', () => {
      const text = '# T\n### Agent Handoffs\n## Agent Handoffs archive\n';
      assert.equal(updateTrackerText(text, []), text + '\n' + renderHandoffsSection([]));
    });

    it('human text under a setext heading after the section is kept byte for byte', () => {
      const afterSetext = 'Release plan\n============\n\nShip on Friday.\n\nRisks\n-----\n\n- none\n';
      const text = `${human}## Agent Handoffs\n\n- old\n\n${afterSetext}`;
      assert.equal(updateTrackerText(text, [seedRecord()]), `${human}${renderHandoffsSection([seedRecord()])}${afterSetext}`);
    });

    it('an indented `   ## x` heading (up to 3 spaces is a heading in CommonMark) ends the section; 4 spaces is code', () => {
      // After `- old` this heading is nested in that list item (CommonMark), yet it is a heading and ends the section.
      const indented = '   ## Ideas\n\nHuman ideas.\n';
      const text = `${human}## Agent Handoffs\n\n- old\n\n${indented}`;
      assert.equal(updateTrackerText(text, []), `${human}${renderHandoffsSection([])}${indented}`);
      // Four spaces make an indented code block inside the section: it is the section's, not a boundary.
      assert.equal(
        updateTrackerText(`${human}## Agent Handoffs\n\n    ## code\n\n${after}`, []),
        `${human}${renderHandoffsSection([])}${after}`,
      );
      // An indented heading titled like ours is ours (CommonMark says it is that heading); it is rewritten flush left.
      assert.equal(
        updateTrackerText(`# T\n\n  ## Agent Handoffs ##\n\n- old\n\n${after}`, []),
        `# T\n\n${renderHandoffsSection([])}${after}`,
      );
    });

    it('a `## Agent Handoffs` line inside a fenced code block is not the section; the code block is kept', () => {
      const fenced = '# T\n\nHow the tracker looks:\n\n```md\n## Agent Handoffs\n\n- [ ] example\n```\n\nMore human text.\n';
      assert.equal(updateTrackerText(fenced, []), `${fenced}\n${renderHandoffsSection([])}`);
      const real = `${fenced}\n${renderHandoffsSection([])}## After\n`;
      assert.equal(updateTrackerText(real, [seedRecord()]), `${fenced}\n${renderHandoffsSection([seedRecord()])}## After\n`);
      // Nor inside an HTML comment, a quote or a list: only a top-level heading starts the section.
      const hidden = '# T\n\n<!--\n## Agent Handoffs\n-->\n\n> ## Agent Handoffs\n\n- ## Agent Handoffs\n';
      assert.equal(updateTrackerText(hidden, []), `${hidden}\n${renderHandoffsSection([])}`);
    });

    it('a heading nested in a quote after the section ends it where the quote begins', () => {
      const quote = '> Intro\n> ## Quoted\n> human text\n';
      assert.equal(updateTrackerText(`${human}## Agent Handoffs\n\n- old\n\n${quote}`, []), `${human}${renderHandoffsSection([])}${quote}`);
    });

    it('a file ending inside an unclosed code fence: refused with what to close, not appended again and again', () => {
      assert.throws(() => updateTrackerText('# T\n\n```\nunclosed\n', []), /never closed.*Close that block/);
    });

    it('U+2028 is not a line break in Markdown: a "heading" after it is neither our section nor its end', () => {
      const before = '# T\nnot a heading\u2028## Agent Handoffs\n';
      const oldSection = '## Agent Handoffs\n\nkept?\u2028## Not a heading either\n\n';
      const after = '## Next\n';
      assert.equal(updateTrackerText(before + oldSection + after, []), before + renderHandoffsSection([]) + after);
    });

    it('a file ending in a lone CR: the section is appended in CRLF and a second pass is stable', () => {
      const once = updateTrackerText('# T\r', []);
      assert.equal(once, '# T\r\n\r\n' + renderHandoffsSection([], '\r\n'));
      assert.equal(updateTrackerText(once, []), once);
    });

    it('an all-space file name is shown as it is (CommonMark does not strip all-space code spans)', () => {
      assert.equal(codeSpan(' '), '` `');
      assert.equal(codeSpan('\u0085'), '` `');
    });

    it('a long note is cut at a character boundary, never inside a surrogate pair', () => {
      const note = 'a'.repeat(498) + '😀' + 'tail';
      const line = renderHandoffLines(makeHandoff({ notes: note }))[2];
      assert.equal(line, `  - note: ${'a'.repeat(498)}…`);
    });

    it('rendering is stable: a second pass changes nothing', () => {
      const once = updateTrackerText(`${human}${after}`, [seedRecord()]);
      assert.equal(updateTrackerText(once, [seedRecord()]), once);
    });
  });

  describe('on disk, through the store', () => {
    it("a request re-renders the section and keeps a CRLF tracker's human text byte for byte", async () => {
      const ws = new TestWorkspace();
      const before = '# Agent Tracker\r\n\r\nOur plan: ship\u00a0it — ünïcödé 🚀\r\n\r\n';
      const rest = '## Sessions\r\n\r\n- 2026-01-01 something\r\n';
      fs.writeFileSync(ws.layout.trackerFile, `${before}## Agent Handoffs\r\n\r\n_No handoffs yet._\r\n\r\n${rest}`);
      const res = await ws.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'Ship\nit', files: ['src/a`b.ts'] },
      });
      assert.equal(res.ok, true, JSON.stringify(res));
      const text = fs.readFileSync(ws.layout.trackerFile, 'utf8');
      assert.ok(text.startsWith(`${before}## Agent Handoffs\r\n\r\n- [ ] HO-`), text);
      assert.ok(text.endsWith(`  - note: Ship it\r\n\r\n${rest}`), text);
      assert.match(text, /files: ``src\/a`b\.ts``\r\n/);
    });

    it("creates AgentTracker.md when missing; init's template is replaced in place", async () => {
      const ws = new TestWorkspace();
      await ws.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'x' },
      });
      assert.match(fs.readFileSync(ws.layout.trackerFile, 'utf8'), /^# Agent Tracker\n\n## Agent Handoffs\n\n- \[ \] HO-/);

      const ws2 = new TestWorkspace();
      fs.writeFileSync(ws2.layout.trackerFile, trackerTemplate());
      await ws2.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'x' },
      });
      const text = fs.readFileSync(ws2.layout.trackerFile, 'utf8');
      assert.ok(text.startsWith(trackerTemplate().split('## Agent Handoffs')[0] + '## Agent Handoffs\n\n- [ ] HO-'));
      assert.equal(text.includes('_No handoffs yet._'), false);
    });

    it('a symlinked tracker is not written through; the store write still happens', async () => {
      const ws = new TestWorkspace();
      const target = `${ws.root}/elsewhere.md`;
      fs.writeFileSync(target, 'precious\n');
      fs.symlinkSync(target, ws.layout.trackerFile);
      const res = await ws.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'x' },
      });
      assert.equal(res.ok, true);
      assert.equal(fs.readFileSync(target, 'utf8'), 'precious\n');
      assert.equal(ws.storedHandoffs().length, 1);
      assert.ok(
        ws.warnings.some((w) => /AgentTracker\.md/.test(w)),
        JSON.stringify(ws.warnings),
      );
    });
  });
});
