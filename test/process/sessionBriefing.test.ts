// startSession's briefing through the real CLI (`agentsync request -`), on a workspace made by `agentsync init`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SessionBriefing } from '../../src/core/requests/sessions/sessionBriefing';
import { CLI, initWorkspace, REPO_ROOT } from './processHarness';

/** The answer's data: the handoff an action made, or startSession's agent and briefing. */
interface Data {
  agent: string;
  handoff: { handoff_id: string };
  briefing: SessionBriefing;
}

function request(ws: string, body: object): Data {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, 'request', '-'], { input: JSON.stringify(body), encoding: 'utf8' });
  const out = JSON.parse(r.stdout) as { ok: boolean; data: Data };
  assert.equal(out.ok, true, r.stdout + r.stderr);
  return out.data;
}

describe('startSession briefing (process)', function () {
  this.timeout(60_000);

  it("answers with the agent's claimable and open work, decisions.md lines, and others' leases and files", () => {
    const ws = initWorkspace('briefing');
    const claimable = request(ws, {
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'Review the fix' },
    }).handoff.handoff_id;
    const held = request(ws, {
      action: 'createHandoff',
      handoff: { from_agent: 'claude', to_agents: ['copilot'], owner_mode: 'single', summary: 'Refactor', files: ['src/auth/session.ts'] },
    }).handoff.handoff_id;
    request(ws, { action: 'claimHandoff', handoffId: held, agent: 'copilot' });
    fs.writeFileSync(
      path.join(ws, 'decisions.md'),
      '# Decisions\n\n2026-03-01T10:00:00.000Z | HO-20260301-001 | codex | Chose JWT | PROCEED | merged\n',
    );

    const data = request(ws, { action: 'startSession', agent: 'claude', goal: 'Reviews' });
    assert.equal(data.agent, 'claude');
    assert.deepEqual(
      data.briefing.claimable.map((h) => h.handoff_id),
      [claimable],
    );
    assert.deepEqual(data.briefing.open, []);
    assert.deepEqual(data.briefing.decisions, ['2026-03-01T10:00:00.000Z | HO-20260301-001 | codex | Chose JWT | PROCEED | merged']);
    assert.deepEqual(
      data.briefing.leases.map((l) => [l.handoff_id, l.claimed_by]),
      [[held, 'copilot']],
    );
    assert.deepEqual(data.briefing.hotFiles, [{ file: 'src/auth/session.ts', handoff_id: held, agent: 'copilot' }]);

    // The documented answer (docs/agentsync-documentation.md, startSession) has the same shape as the real one.
    const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs/agentsync-documentation.md'), 'utf8');
    const shown = (
      JSON.parse(/```json\n(\{"ok":true,"action":"startSession","request_id":"start-2".*\})\n```/.exec(docs)![1]) as { data: Data }
    ).data;
    assert.deepEqual(Object.keys(shown).sort(), Object.keys(data).sort());
    assert.deepEqual(Object.keys(shown.briefing).sort(), Object.keys(data.briefing).sort());
    assert.deepEqual(Object.keys(shown.briefing.claimable[0]).sort(), Object.keys(data.briefing.claimable[0]).sort());
    assert.deepEqual(Object.keys(shown.briefing.leases[0]).sort(), Object.keys(data.briefing.leases[0]).sort());
  });
});
