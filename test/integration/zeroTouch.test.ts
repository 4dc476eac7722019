// Zero-touch sessions (agentsync.automation.endSessionZeroTouch): Start Session claims the best waiting handoff and
// End Session asks nothing: a summary from git and the session, a handoff routed by the configured capabilities
// (core routing), written through the dispatcher, and the pick-up prompt on the clipboard.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import type { SessionRecord, LastSessionRecord } from '../../src/core/requests/sessions/sessionState';
import type { ZeroTouchEnd } from '../../src/vscode/sessionCare/zeroTouchSession';
import { findHandoff, readHandoffs, runWithAnswers, recordFile, workspaceRoot } from './helpers';

interface SessionFields {
  activeSessions: Record<string, SessionRecord>;
  lastSession: LastSessionRecord | null;
}
const state = () => JSON.parse(fs.readFileSync(recordFile('state.json'), 'utf8')) as SessionFields;
const setting = (key: string, value: unknown) =>
  vscode.workspace.getConfiguration('agentsync').update(key, value, vscode.ConfigurationTarget.Global);

describe('zero-touch sessions', () => {
  before(async () => {
    await setting('automation.endSessionZeroTouch', true);
    await setting('automation.handoffCapabilities', ['pr_review']);
  });
  after(async () => {
    await setting('automation.endSessionZeroTouch', undefined);
    await setting('automation.handoffCapabilities', undefined);
  });

  it('Start Session asks nothing and claims the best handoff waiting for me (mine alone, most urgent, oldest)', async () => {
    const { result, log } = await runWithAnswers<RequestResponse>('agentsync.startSession', []);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(log.asked, []);
    const h = findHandoff('Review the token refresh fix'); // queued for human alone, priority high
    assert.deepEqual([h.status, h.claimed_by], ['in_progress', 'human']);
    assert.equal(state().activeSessions.human.handoffUid, h.uid);
    assert.match(log.info[0], new RegExp(`claimed ${h.handoff_id} \\(Review the token refresh fix\\) and started a session on it`));
  });

  it('End Session asks nothing: summary from git and the session, handoff routed by capabilities, pick-up prompt copied', async () => {
    fs.appendFileSync(path.join(workspaceRoot(), 'src/auth/session.ts'), '// refresh once\n');
    const claimed = findHandoff('Review the token refresh fix');
    const before = readHandoffs().length;
    const { result, log } = await runWithAnswers<ZeroTouchEnd>('agentsync.endSession', []);
    assert.deepEqual(log.asked, [], 'zero-touch asks nothing');
    assert.equal(result.response.ok, true, JSON.stringify(result.response));

    const all = readHandoffs();
    assert.equal(all.length, before + 1);
    const h = all[all.length - 1];
    assert.equal(h.summary, `Follow up ${claimed.handoff_id} (Review the token refresh fix): 1 file changed on main`);
    assert.deepEqual(
      [h.from_agent, h.owner_mode, h.to_agents, h.files, h.status],
      ['human', 'single', ['copilot'], ['src/auth/session.ts'], 'queued'],
    );
    assert.deepEqual(h.required_capabilities, ['pr_review']);
    assert.match(h.state_history[0].reason ?? '', /routed automatically: copilot is the only agent with pr_review/);
    assert.match(h.notes, new RegExp(`^Started from ${claimed.handoff_id} \\(${claimed.uid}\\): Review the token refresh fix$`, 'm'));
    assert.match(h.notes, /^Changed files \(1\): src\/auth\/session\.ts$/m);

    const expected = `Pick up handoff ${h.uid} in ${path.basename(workspaceRoot())}: ${h.summary} — run \`agentsync claim ${h.uid} --agent copilot\``;
    assert.equal(result.pickUpPrompt, expected);
    assert.equal(await vscode.env.clipboard.readText(), expected);
    assert.match(log.info[0], new RegExp(`${h.handoff_id} is queued for Copilot \\(routed by capabilities pr_review`));

    const s = state();
    assert.equal(s.activeSessions.human, undefined);
    assert.equal(s.lastSession?.summary, `${h.summary} (zero-touch)`);
    assert.equal(s.lastSession?.handoffId, h.handoff_id);
  });
});
