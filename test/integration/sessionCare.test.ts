// Session care (pass "session" of run.mjs: state.json holds a session of this window's agent, human, started 3 h ago):
// the start-up Continue / End question, clicked in the workbench like a user; End runs End Session. Then the
// reminders of agentsync.sessionReminderHours with End / Snooze.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { SessionRecord, LastSessionRecord } from '../../src/core/requests/sessions/sessionState';
import { answerPrompts, api, clickNotification, runWithAnswers, sleep, waitFor, recordFile } from './helpers';

interface SessionFields {
  activeSessions: Record<string, SessionRecord>;
  lastSession: LastSessionRecord | null;
}
const state = () => JSON.parse(fs.readFileSync(recordFile('state.json'), 'utf8')) as SessionFields;
const agentsync = () => vscode.workspace.getConfiguration('agentsync');

describe('session care', () => {
  it('a session left open is offered Continue / End at start-up; choosing End ends it through End Session', async () => {
    const a = await api();
    const prompt = await waitFor('the start-up question', () => a.sessionCare.startupPrompts[0]);
    assert.equal(prompt.sessionId, '01JSEEDSESS10N000000000000');
    assert.match(
      prompt.message,
      /^AgentSync: Human's session in \S+, started 3 h( \d+ min)? ago, is still open: Finish the auth work\. Continue it, or end it\?$/,
    );
    // End Session's own questions are answered by stubs; the start-up notification is real and clicked in the DOM.
    const log = answerPrompts({ input: 'Closed the session left open' }, { input: '' }, { pick: 'No handoff' }, { modal: 'Trust and Run' });
    try {
      await clickNotification('is still open', 'End');
      assert.equal(await prompt.choice, 'End');
      assert.deepEqual(log.remaining, [], `asked: ${log.asked.join(' / ')}`);
    } finally {
      log.restore();
    }
    assert.equal(log.asked[0], 'input: Session summary: what was done?');
    const s = state();
    assert.equal(s.activeSessions.human, undefined);
    assert.equal(s.lastSession?.summary, 'Closed the session left open');
    assert.equal(s.lastSession?.id, '01JSEEDSESS10N000000000000');
  });

  it('reminds "session open for …" every sessionReminderHours with End / Snooze; Snooze asks again later; 0 stops it', async () => {
    const { result } = await runWithAnswers<{ ok: boolean }>('agentsync.startSession', [], { input: 'Reminder check' });
    assert.equal(result.ok, true, JSON.stringify(result));
    const win = vscode.window as unknown as { showInformationMessage: (m: string, ...items: string[]) => Thenable<string | undefined> };
    const real = win.showInformationMessage;
    const reminders: string[] = [];
    win.showInformationMessage = (m: string, ...items: string[]) => {
      if (!/session open for/.test(m)) return Promise.resolve(undefined);
      reminders.push(`${m} [${items.join('|')}]`);
      return Promise.resolve('Snooze');
    };
    try {
      await agentsync().update('sessionReminderHours', 0.0003, vscode.ConfigurationTarget.Global); // about 1 s
      await waitFor('the first reminder', () => reminders.length >= 1, 15_000);
      assert.match(
        reminders[0],
        new RegExp(
          "^AgentSync: Human's session open for (less than a minute|\\d+ min) in \\S+ \\(Reminder check\\)\\. " +
            'End it, or snooze this reminder for 0\\.0003 h\\? \\[End\\|Snooze\\]$',
        ),
      );
      await waitFor('a second reminder after the snooze', () => reminders.length >= 2, 15_000);
      await agentsync().update('sessionReminderHours', 0, vscode.ConfigurationTarget.Global);
      const count = reminders.length;
      // The subject is a timer that must not fire: no event announces one that did not; 2.5 s is 2+ reminder intervals.
      await sleep(2_500);
      assert.ok(reminders.length <= count + 1, `reminders went on after the setting became 0: ${reminders.length - count} more`);
    } finally {
      win.showInformationMessage = real;
      await agentsync().update('sessionReminderHours', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
