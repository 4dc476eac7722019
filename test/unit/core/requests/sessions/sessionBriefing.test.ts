// startSession's briefing (docs/contract.md §10a): the agent's open and claimable handoffs, returns waiting for it, the latest
// decisions.md lines, other agents' active leases and the files they hold.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { latestDecisions, type SessionBriefing } from '../../../../../src/core/requests/sessions/sessionBriefing';
import { DECISIONS_HEADER } from '../../../../../src/core/store/decisionsLog';
import { TestWorkspace, removeTempDirs } from '../../../helpers/testWorkspace';

const CONFIG = { agentCapabilities: { claude: ['policy_review'], codex: ['code_patch'], copilot: ['pr_review'] } };

describe('startSession briefing', () => {
  afterEach(removeTempDirs);

  /** The answer's data: the handoff an action made or changed, the one returned to its originator, a briefing. */
  interface Data {
    handoff: { handoff_id: string };
    returned: { handoff_id: string };
    briefing: unknown;
  }
  async function ok(ws: TestWorkspace, request: Record<string, unknown>): Promise<Data> {
    const r = await ws.dispatcher.dispatch(request);
    assert.equal(r.ok, true, JSON.stringify(r));
    ws.clock.advance(1_000);
    return r.data as unknown as Data;
  }
  const create = async (ws: TestWorkspace, handoff: object) => (await ok(ws, { action: 'createHandoff', handoff })).handoff.handoff_id;

  it("lists open, claimable and returned work, the latest decisions, and other agents' leases and files", async () => {
    const ws = new TestWorkspace({ config: CONFIG });
    const queued = await create(ws, { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'Review the fix' });
    const shared = await create(ws, {
      from_agent: 'codex',
      to_agents: ['claude', 'copilot'],
      owner_mode: 'shared',
      summary: 'Shared review',
    });
    const auto = await create(ws, {
      from_agent: 'codex',
      owner_mode: 'auto',
      required_capabilities: ['policy_review'],
      summary: 'Policy check',
    });
    const mine = await create(ws, { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'Held by claude' });
    await ok(ws, { action: 'claimHandoff', handoffId: mine, agent: 'claude' });
    const theirs = await create(ws, {
      from_agent: 'claude',
      to_agents: ['copilot'],
      owner_mode: 'single',
      summary: 'Copilot works on it',
      files: ['src/a.ts', 'src/b.ts'],
    });
    await ok(ws, { action: 'claimHandoff', handoffId: theirs, agent: 'copilot' });
    const review = await create(ws, { from_agent: 'claude', to_agents: ['codex'], owner_mode: 'single', summary: 'Codex finished this' });
    await ok(ws, { action: 'claimHandoff', handoffId: review, agent: 'codex' });
    await ok(ws, { action: 'completeHandoff', handoffId: review, agent: 'codex' });
    const unrelated = await create(ws, {
      from_agent: 'claude',
      to_agents: ['copilot'],
      owner_mode: 'single',
      summary: "Not claude's to claim",
    });
    const lines = Array.from(
      { length: 12 },
      (_, i) => `2026-03-0${(i % 9) + 1}T10:00:00.000Z | HO-20260301-0${String(i + 10)} | codex | decision ${i + 1} | PROCEED | merged`,
    );
    fs.writeFileSync(ws.layout.decisionsFile, DECISIONS_HEADER + lines.join('\n') + '\n');

    const data = await ok(ws, { action: 'startSession', agent: 'claude', goal: 'Reviews' });
    const b = data.briefing as SessionBriefing;
    const ids = (list: { handoff_id: string }[]) => list.map((h) => h.handoff_id);
    assert.equal(b.agent, 'claude');
    assert.deepEqual(ids(b.claimable), [queued, shared, auto]);
    assert.deepEqual(ids(b.open), [mine]);
    assert.deepEqual(ids(b.returns), [review], 'ready_for_review waiting for its originator');
    assert.ok(!JSON.stringify(b).includes(unrelated), "work for another agent only is not in claude's lists");
    assert.deepEqual(b.decisions, lines.slice(-10));
    assert.deepEqual(
      b.leases.map((l) => [l.handoff_id, l.claimed_by]),
      [[theirs, 'copilot']],
    );
    assert.deepEqual(b.hotFiles, [
      { file: 'src/a.ts', handoff_id: theirs, agent: 'copilot' },
      { file: 'src/b.ts', handoff_id: theirs, agent: 'copilot' },
    ]);

    // Once copilot's lease has run out it is no longer an active lease, and its files are no longer hot.
    ws.clock.advance(31 * 60_000);
    const later = (await ok(ws, { action: 'startSession', agent: 'claude' })).briefing as SessionBriefing;
    assert.deepEqual(later.leases, []);
    assert.deepEqual(later.hotFiles, []);
  });

  it('passed-over work that came back is listed under returns for the agent it came back to', async () => {
    const ws = new TestWorkspace({ config: CONFIG });
    const work = await create(ws, { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'Audit' });
    await ok(ws, { action: 'claimHandoff', handoffId: work, agent: 'claude' });
    const passed = (
      await ok(ws, { action: 'passOver', handoffId: work, agent: 'claude', to: 'copilot', reason: 'code_review', summary: 'Check it' })
    ).handoff.handoff_id;
    await ok(ws, { action: 'claimHandoff', handoffId: passed, agent: 'copilot' });
    const returned = (
      await ok(ws, {
        action: 'returnHandoff',
        handoffId: passed,
        agent: 'copilot',
        result: { status: 'complete', decision: 'PROCEED', context_summary: 'Fine.' },
      })
    ).returned.handoff_id;
    const b = (await ok(ws, { action: 'startSession', agent: 'claude' })).briefing as SessionBriefing;
    // The passed handoff waits in ready_for_review for claude (its return_to), and the return is queued to claude.
    assert.deepEqual(
      b.returns.map((h) => [h.handoff_id, h.status]),
      [
        [passed, 'ready_for_review'],
        [returned, 'queued'],
      ],
    );
    assert.deepEqual(
      b.open.map((h) => h.handoff_id),
      [work],
    );
  });

  it("hot files include another agent's active session: for the reviewer too, while that session is open", async () => {
    const ws = new TestWorkspace({ config: CONFIG });
    const work = await create(ws, {
      from_agent: 'codex',
      to_agents: ['claude'],
      owner_mode: 'single',
      summary: 'Fix',
      files: ['src/x.ts'],
    });
    await ok(ws, { action: 'claimHandoff', handoffId: work, agent: 'claude' });
    await ok(ws, { action: 'startSession', agent: 'claude', handoffId: work });
    await ok(ws, { action: 'completeHandoff', handoffId: work, agent: 'claude' });
    // codex reviews the completed work, so claude's claim alone would not make the file hot for codex; the session does.
    const b = (await ok(ws, { action: 'startSession', agent: 'codex' })).briefing as SessionBriefing;
    assert.deepEqual(b.hotFiles, [{ file: 'src/x.ts', handoff_id: work, agent: 'claude' }]);
    await ok(ws, { action: 'endSession', agent: 'claude', summary: 'done' });
    const after = (await ok(ws, { action: 'startSession', agent: 'codex' })).briefing as SessionBriefing;
    assert.deepEqual(after.hotFiles, []);
  });

  it('decisions.md: read from its tail only, none when missing or a symlink', () => {
    const ws = new TestWorkspace();
    assert.deepEqual(latestDecisions(ws.layout.decisionsFile), []);
    const many = Array.from(
      { length: 5_000 },
      (_, i) => `2026-03-01T10:00:00.000Z | HO-20260301-001 | codex | line ${i} | PROCEED | merged`,
    );
    fs.writeFileSync(ws.layout.decisionsFile, DECISIONS_HEADER + many.join('\n') + '\n');
    assert.deepEqual(latestDecisions(ws.layout.decisionsFile, 3), many.slice(-3));
    fs.renameSync(ws.layout.decisionsFile, `${ws.layout.decisionsFile}.real`);
    fs.symlinkSync(`${ws.layout.decisionsFile}.real`, ws.layout.decisionsFile);
    assert.deepEqual(latestDecisions(ws.layout.decisionsFile), []);
  });
});
