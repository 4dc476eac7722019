// AgentSync 0.3's End Session sections in AgentTracker.md, in 0.3's format, without 0.3's bugs: sections replaced
// (never duplicated), only the ending agent's own In Progress lines removed, everything else kept byte for byte.
import { strict as assert } from 'node:assert';
import { findSection } from '../../../../../src/core/domain/trackerRenderer';
import {
  appendSuggestedNext,
  CURRENT_HEALTH,
  HOT_FILES,
  IN_PROGRESS,
  inProgressLine,
  isInProgressLineOf,
  LAST_SESSION,
  readLastSession,
  setCurrentHealth,
  setHotFiles,
  setLastSession,
  SUGGESTED_NEXT,
  updateInProgress,
} from '../../../../../src/core/requests/sessions/sessionTrackerSections';
import type { HealthReport, HealthResult } from '../../../../../src/core/requests/sessions/healthChecks';

/** The shape of an AgentSync 0.3 tracker (its template's comments included). */
const TRACKER_03 = `# AgentTracker

> Shared handoff document for multi-agent coordination.
> Every agent reads this first and updates it last.

## Last Session

- **Agent:** Codex
- **Date:** 2026-02-22T00:00:00Z
- **Summary:** Old summary
- **Branch:** master
- **Commit:** abc1234

## Current Health

| Check  | Status |
| ------ | ------ |
| Build  | Not configured |
| Tests  | Not configured |
| Deploy | Not configured |

## Hot Files

<!-- Files recently changed. Other agents should coordinate before editing these. -->

- \`extension.js\`

## In Progress

<!-- Active work. Clear this section when complete. -->

*Nothing active*

## Suggested Next Work

<!-- Leave notes for the next agent here. -->
- Verify the webview

## Known Issues & Gotchas

- Human text, kept as it is.

## Agent Handoffs

_No handoffs yet._
`;

const result = (status: HealthResult['status'], output = '', timedOut = false): HealthResult => ({
  status,
  output,
  command: status === 'Not configured' ? null : ['x'],
  exitCode: status === 'Pass' ? 0 : 1,
  timedOut,
  durationMs: 1,
});
const health = (b: HealthResult, t: HealthResult, d: HealthResult): HealthReport => ({ Build: b, Tests: t, Deploy: d });

function section(text: string, heading: string): string {
  const s = findSection(text, heading);
  assert.ok(s, `${heading} exists`);
  return text.slice(s.start, s.end);
}

function count(text: string, heading: string): number {
  return text.split('\n').filter((l) => l === heading).length;
}

describe('session tracker sections (0.3 format)', () => {
  it('Last Session is replaced, not prepended (0.3 duplicated it); the rest of the file is kept', () => {
    let t = setLastSession(TRACKER_03, {
      agent: 'claude',
      date: '2026-03-01T10:00:00.000Z',
      summary: 'Fixed it',
      branch: 'main',
      commit: 'def5678',
    });
    t = setLastSession(t, { agent: 'claude', date: '2026-03-01T11:00:00.000Z', summary: null, branch: null, commit: null });
    assert.equal(
      section(t, LAST_SESSION),
      '## Last Session\n\n- **Agent:** Claude\n- **Date:** 2026-03-01T11:00:00.000Z\n- **Summary:** -\n- **Branch:** -\n- **Commit:** -\n\n',
    );
    assert.equal(count(t, LAST_SESSION), 1);
    const untouched = (x: string) => x.slice(0, x.indexOf(LAST_SESSION)) + x.slice(x.indexOf(CURRENT_HEALTH));
    assert.equal(untouched(t), untouched(TRACKER_03));
  });

  it("reads Last Session back (the status action, like 0.3's parseTracker)", () => {
    assert.deepEqual(readLastSession(TRACKER_03), {
      agent: 'Codex',
      date: '2026-02-22T00:00:00Z',
      summary: 'Old summary',
      branch: 'master',
      commit: 'abc1234',
    });
    assert.equal(readLastSession('# nothing\n'), null);
  });

  it('agent text cannot break the structure: newlines folded, Markdown escaped', () => {
    const t = setLastSession(TRACKER_03, {
      agent: 'claude',
      date: 'd',
      summary: 'line one\n## Injected heading\n- **Agent:** Evil',
      branch: 'feat/*x*',
      commit: 'c',
    });
    assert.equal(count(t, '## Injected heading'), 0);
    assert.deepEqual(readLastSession(t), {
      agent: 'Claude',
      date: 'd',
      summary: 'line one ## Injected heading - \\*\\*Agent:\\*\\* Evil',
      branch: 'feat/\\*x\\*',
      commit: 'c',
    });
  });

  it('Current Health: the 0.3 table, failed output fenced so that no output line can end the fence or look like a heading', () => {
    const nasty = 'compiling\n## not a heading\n```\nstill inside\n# also not\nerror TS2304';
    const t = setCurrentHealth(TRACKER_03, health(result('Pass'), result('Fail', nasty), result('Not configured')));
    const s = section(t, CURRENT_HEALTH);
    assert.ok(
      s.startsWith(
        '## Current Health\n\n| Check  | Status |\n| ------ | ------ |\n| Build  | Pass |\n| Tests  | Fail |\n| Deploy | Not configured ' +
          '|\n\n**Tests output:**\n````\n',
      ),
      s,
    );
    assert.ok(s.includes('\n ## not a heading\n'));
    assert.ok(s.endsWith('error TS2304\n````\n\n'));
    // The sections after it are still found where they were: nothing inside the fence split the file.
    assert.equal(section(t, HOT_FILES), section(TRACKER_03, HOT_FILES));
    assert.equal(count(t, CURRENT_HEALTH), 1);
    // Twice: replaced, not appended (0.3 left a second table behind).
    const again = setCurrentHealth(t, health(result('Pass'), result('Pass'), result('Not configured')));
    assert.equal(section(again, CURRENT_HEALTH).match(/\| Check/g)!.length, 1);
    assert.ok(!again.includes('not a heading'));
  });

  it('a timed-out check says so in its row', () => {
    const t = setCurrentHealth(TRACKER_03, health(result('Fail', 'slow', true), result('Not configured'), result('Not configured')));
    assert.ok(section(t, CURRENT_HEALTH).includes('| Build  | Fail (timed out) |'));
  });

  it('Hot Files keeps the template comment; an empty list says *None*; file names become code spans', () => {
    const t = setHotFiles(TRACKER_03, ['src/a.ts', 'has `tick`.md']);
    assert.equal(
      section(t, HOT_FILES),
      '## Hot Files\n\n<!-- Files recently changed. Other agents should coordinate before editing these. -->\n\n- `src/a.ts`\n- ``has `tick`.md``\n\n',
    );
    assert.ok(section(setHotFiles(t, []), HOT_FILES).endsWith('\n\n*None*\n\n'));
  });

  it("In Progress: start adds a 0.3 line in place of *Nothing active*; ending removes only that agent's own lines", () => {
    let t = updateInProgress(TRACKER_03, 'claude', inProgressLine('claude', '2026-03-02T01:00:00.000Z', 'fix login'));
    t = updateInProgress(t, 'copilot', inProgressLine('copilot', '2026-03-02T01:05:00.000Z', 'review what Claude did, with claude'));
    // A line a human wrote for another agent whose name starts the same way.
    t = t.replace('- [ ] Copilot', '- [ ] Claude-Code (manual): pairing with claude\n- [ ] Copilot');
    assert.equal(
      section(t, IN_PROGRESS),
      '## In Progress\n\n<!-- Active work. Clear this section when complete. -->\n\n- [ ] Claude (2026-03-02T01:00:00.000Z): fix login\n- [ ] ' +
        'Claude-Code (manual): pairing with claude\n- [ ] Copilot (2026-03-02T01:05:00.000Z): review what Claude did, with claude\n\n',
    );
    const ended = updateInProgress(t, 'claude', null);
    assert.equal(
      section(ended, IN_PROGRESS),
      '## In Progress\n\n<!-- Active work. Clear this section when complete. -->\n\n- [ ] Claude-Code (manual): pairing with claude\n- [ ] ' +
        'Copilot (2026-03-02T01:05:00.000Z): review what Claude did, with claude\n\n',
    );
    const empty = updateInProgress(updateInProgress(ended, 'copilot', null), 'claude-code', null);
    assert.equal(section(empty, IN_PROGRESS), section(TRACKER_03, IN_PROGRESS));
  });

  it('matches an In Progress line by its name field, case-insensitively, not by substring', () => {
    assert.equal(isInProgressLineOf('- [ ] Claude (2026): x', 'claude'), true);
    assert.equal(isInProgressLineOf('- [ ] claude (2026): x', 'claude'), true);
    assert.equal(isInProgressLineOf('- [ ] Claude Code (2026): x', 'claude-code'), true);
    assert.equal(isInProgressLineOf('- [ ] Copilot (2026): ask Claude (later)', 'claude'), false);
    assert.equal(isInProgressLineOf('Claude (notes)', 'claude'), false);
  });

  it('Suggested Next Work appends after what is there, keeping it byte for byte', () => {
    const t = appendSuggestedNext(TRACKER_03, 'Run the\nmigration');
    assert.equal(
      section(t, SUGGESTED_NEXT),
      '## Suggested Next Work\n\n<!-- Leave notes for the next agent here. -->\n- Verify the webview\n- Run the migration\n\n',
    );
  });

  it('missing sections are inserted above ## Agent Handoffs in 0.3 order; a file without it gets them appended', () => {
    const fresh = '# Agent Tracker\n\nHuman intro.\n\n## Agent Handoffs\n\n_No handoffs yet._\n';
    let t = setLastSession(fresh, { agent: 'codex', date: 'd', summary: 's', branch: 'b', commit: 'c' });
    t = setCurrentHealth(t, health(result('Not configured'), result('Not configured'), result('Not configured')));
    t = setHotFiles(t, []);
    t = updateInProgress(t, 'codex', null);
    t = appendSuggestedNext(t, 'next');
    const order = [LAST_SESSION, CURRENT_HEALTH, HOT_FILES, IN_PROGRESS, SUGGESTED_NEXT, '## Agent Handoffs'].map((h) =>
      t.indexOf(`\n${h}\n`),
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
    assert.ok(order.every((i) => i > 0));
    assert.ok(t.startsWith('# Agent Tracker\n\nHuman intro.\n\n## Last Session\n'));
    assert.ok(t.endsWith('## Agent Handoffs\n\n_No handoffs yet._\n'));
    const bare = updateInProgress('# Notes\n\nmine\n', 'codex', null);
    assert.equal(bare, '# Notes\n\nmine\n\n## In Progress\n\n*Nothing active*\n');
  });

  it('CRLF trackers get CRLF sections and keep their other bytes', () => {
    const crlf = TRACKER_03.replace(/\n/g, '\r\n');
    const t = setHotFiles(updateInProgress(crlf, 'claude', inProgressLine('claude', 't', 'g')), ['a.ts']);
    assert.ok(!/[^\r]\n/.test(t), 'no bare LF');
    assert.ok(t.includes('## Known Issues & Gotchas\r\n\r\n- Human text, kept as it is.\r\n'));
  });
});
