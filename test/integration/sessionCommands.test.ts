// Start Session and End Session: the interactive flow, enforcement of requireHandoffOnEndSession with hot files
// from git, cancellation without half-written state (at a prompt, and during the health checks).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import type { LastSessionRecord, SessionRecord } from '../../src/core/requests/sessions/sessionState';
import { findHandoff, runWithAnswers, withCommands, recordFile, workspaceRoot } from './helpers';

const file = (rel: string) => path.join(workspaceRoot(), rel);
const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');
/** The session fields of state.json. */
interface SessionFields {
  sessionActive: boolean;
  activeSessions: Record<string, SessionRecord>;
  lastSession: LastSessionRecord;
}
const state = () => JSON.parse(fs.readFileSync(recordFile('state.json'), 'utf8')) as SessionFields;

describe('session commands', () => {
  it('Start Session without a handoff: a goal, recorded in state.json', async () => {
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.startSession',
      [],
      { pick: 'No handoff' },
      { input: 'Finish the auth work' },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(log.asked, ['pick: Start from a handoff you hold?', 'input: Goal of this session']);
    const s = state();
    assert.equal(s.sessionActive, true);
    assert.equal(s.activeSessions.human.goal, 'Finish the auth work');
    assert.match(s.activeSessions.human.id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('Start Session from a claimed handoff records its uid', async () => {
    const h = findHandoff('Created from the CLI');
    const { result } = await runWithAnswers<RequestResponse>('agentsync.startSession', [], { pick: h.handoff_id }, { input: '' });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(state().activeSessions.human.handoffUid, h.uid);
    assert.equal(state().activeSessions.human.goal, 'Created from the CLI');
  });

  it('End Session with no changed files may end without a handoff; the health check runs', async () => {
    // The seeded repository's commands are not approved on this machine yet: the modal asks, and "Trust and Run" approves them.
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.endSession',
      [],
      { input: 'Read the auth code' },
      { input: '' },
      { pick: 'No handoff' },
      { modal: 'Trust and Run' },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(log.asked, [
      'input: Session summary: what was done?',
      'input: Next work: what should happen next? (optional; becomes the handoff summary)',
      'pick: Leave a handoff?',
      'modal: AgentSync: run the commands of .agentsync.json? They have not been approved on this machine.',
    ]);
    assert.deepEqual(result.data?.health, { Build: 'Not configured', Tests: 'Pass', Deploy: 'Not configured' });
    assert.equal(state().sessionActive, false);
    assert.equal(state().lastSession.summary, 'Read the auth code');
  });

  describe('with changed files and requireHandoffOnEndSession', () => {
    before(() => {
      fs.writeFileSync(file('src/auth/token.ts'), 'export const TOKEN_TTL = 3600;\n');
      fs.appendFileSync(file('README.md'), '\nToken refresh is retried once.\n');
    });

    it('dismissing the owner question writes nothing', async () => {
      const store = fs.readFileSync(recordFile('handoffs.json'), 'utf8');
      const st = fs.readFileSync(recordFile('state.json'), 'utf8');
      const { result, log } = await runWithAnswers<{ cancelled: boolean }>(
        'agentsync.endSession',
        [],
        { input: 'Fixed it' },
        { input: '' },
        { pick: ['README.md', 'src/auth/token.ts'] },
        { cancel: true },
      );
      assert.equal(result.cancelled, true);
      assert.match(log.asked[2], /^pick: 2 changed file\(s\) in git/);
      assert.equal(fs.readFileSync(recordFile('handoffs.json'), 'utf8'), store);
      assert.equal(fs.readFileSync(recordFile('state.json'), 'utf8'), st);
    });

    it('requires a handoff: summary, next work, hot files, owner, target, note → one handoff with the files', async () => {
      const { result, log } = await runWithAnswers<RequestResponse>(
        'agentsync.endSession',
        [],
        { input: 'Token refresh race fixed' },
        { input: 'Review the fix under load' },
        { pick: ['README.md', 'src/auth/token.ts'] },
        { pick: 'single' },
        { pick: 'Claude' },
        { input: 'Watch the retry path' },
      );
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(log.asked[3], 'pick: Who owns the follow-up?'); // no "Leave a handoff?": it is required
      const h = findHandoff('Review the fix under load');
      assert.deepEqual(
        [h.from_agent, h.to_agents, h.files.sort(), h.notes, h.branch],
        ['human', ['claude'], ['README.md', 'src/auth/token.ts'], 'Watch the retry path', 'main'],
      );
      assert.deepEqual(result.data?.hotFiles, ['README.md', 'src/auth/token.ts']);
      assert.equal(state().lastSession.handoffId, h.handoff_id);
      assert.match(read('AgentTracker.md'), /Team notes live here\./);
    });

    it('Next work left empty: the handoff summary is asked for again, never taken from the session summary', async () => {
      const { result, log } = await runWithAnswers<RequestResponse>(
        'agentsync.endSession',
        [],
        { input: 'Token refresh tidied' },
        { input: '' },
        { pick: ['src/auth/token.ts'] },
        { pick: 'single' },
        { pick: 'Claude' },
        { input: 'Re-run the refresh load test' },
        { input: 'The retry path changed' },
      );
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(log.asked[5], 'input: Next work was left empty: what should the receiver do? (the handoff summary)');
      const h = result.data?.handoff as Handoff;
      assert.deepEqual([h.summary, h.notes, h.to_agents], ['Re-run the refresh load test', 'The retry path changed', ['claude']]);
      assert.equal(state().lastSession.nextWork, 'Re-run the refresh load test');
    });

    it('or a skip with its reason, recorded as no_handoff_reason', async () => {
      const { result } = await runWithAnswers<RequestResponse>(
        'agentsync.endSession',
        [],
        { input: 'Formatting only' },
        { input: '' },
        { pick: ['README.md'] },
        { pick: 'skip' },
        { input: 'Whitespace changes, nothing to review' },
      );
      assert.equal(result.ok, true, JSON.stringify(result));
      const h = result.data?.handoff as { no_handoff_reason: string; handoff_id: string };
      assert.equal(h.no_handoff_reason, 'Whitespace changes, nothing to review');
      assert.equal(state().lastSession.no_handoff_reason, 'Whitespace changes, nothing to review');
    });

    it('commands changed in the repository: "End Without Running" ends the session, runs nothing, checks Skipped (commands_untrusted)', async () => {
      const marker = path.join(workspaceRoot(), 'untrusted-ran.txt');
      const { result, log } = await withCommands(
        { test: ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`] },
        () =>
          runWithAnswers<RequestResponse>(
            'agentsync.endSession',
            [],
            { input: 'Changed commands' },
            { input: '' },
            { pick: ['README.md'] },
            { pick: 'skip' },
            { input: 'Checking consent' },
            { modal: 'End Without Running' },
          ),
      );
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.ok(
        log.asked.some((q) => q.startsWith('modal: AgentSync: run the commands of .agentsync.json?')),
        log.asked.join(' / '),
      );
      assert.equal((result.data?.health as Record<string, string>).Tests, 'Skipped');
      assert.equal((result.data?.commandsUntrusted as { reason: string }).reason, 'commands_untrusted');
      assert.equal(fs.existsSync(marker), false, 'the unapproved command did not run');
    });

    it('cancelling during the health checks stops the check and writes nothing', async () => {
      const store = fs.readFileSync(recordFile('handoffs.json'), 'utf8');
      const source = new vscode.CancellationTokenSource();
      const t0 = Date.now();
      const timer = setTimeout(() => source.cancel(), 1_500);
      const { result } = await withCommands({ test: ['node', '-e', 'setTimeout(() => {}, 60000)'] }, () =>
        runWithAnswers<{ cancelled: boolean }>(
          'agentsync.endSession',
          [{ cancellation: source.token }],
          { input: 'Slow checks' },
          { input: '' },
          { pick: ['README.md'] },
          { pick: 'skip' },
          { input: 'Testing cancellation' },
          { modal: 'Trust and Run' },
        ),
      );
      clearTimeout(timer);
      assert.equal(result.cancelled, true, JSON.stringify(result));
      assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms: the 60 s check was not stopped`);
      assert.equal(fs.readFileSync(recordFile('handoffs.json'), 'utf8'), store);
    });
  });
});
