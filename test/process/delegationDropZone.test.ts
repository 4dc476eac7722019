// The Alice → Audit → Alice cycle (docs/contract.md §6) through the drop zone (§8), answered by a running `agentsync watch`:
// each agent only writes request files into .agentsync/requests/ and reads its answer from .agentsync/responses/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { type Child, CLI, configureAgents, initWorkspace, startChild } from './processHarness';

interface Answer {
  ok: boolean;
  request_id: string;
  reason?: string;
  data: {
    handoff: Handoff;
    handoffs: Handoff[];
    returned?: Handoff;
    completed?: Handoff;
    notify?: { agent: string; handoff: string } | null;
  };
}

/** Writes a request as the drop-zone contract says (a temp file, then a rename into requests/) and waits for its answer. */
async function ask(dir: string, request: Record<string, unknown> & { request_id: string }): Promise<Answer> {
  const data = path.join(dir, '.agentsync');
  const tmp = path.join(data, `.${request.request_id}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(request));
  fs.renameSync(tmp, path.join(data, 'requests', `${request.request_id}.json`));
  const answer = path.join(data, 'responses', `${request.request_id}.json`);
  const deadline = Date.now() + 20_000;
  while (!fs.existsSync(answer)) {
    if (Date.now() > deadline) throw new Error(`no answer to ${request.request_id} within 20 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return JSON.parse(fs.readFileSync(answer, 'utf8')) as Answer;
}

const report = {
  status: 'complete',
  decision: 'PROCEED',
  context_summary: 'login handler reviewed: one nit, no blockers',
  findings: { risk: 'low' },
  issues: [],
};

describe('alice → audit → alice through the drop zone, under agentsync watch (docs/contract.md §6, §8)', function () {
  this.timeout(120_000);
  let dir: string;
  let watcher: Child | undefined;

  afterEach(async () => {
    if (watcher && watcher.proc.exitCode === null && watcher.proc.signalCode === null) {
      watcher.proc.kill('SIGKILL');
      await watcher.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('alice passes by a request file, audit claims and passes back with its report, alice gets the return and approves', async () => {
    dir = initWorkspace('dz-deleg');
    configureAgents(dir);
    watcher = startChild(CLI, ['--dir', dir, 'watch', '--interval-ms', '200']);
    await watcher.waitForLine((l) => l.startsWith('watching '), 15_000, 'agentsync watch to be ready');

    const passed = await ask(dir, {
      request_id: 'alice-pass-1',
      action: 'passOver',
      agent: 'alice',
      message: '[pass_over: audit]\nSummary: review the login handler\nReason: code_review',
      files: ['src/auth/login.ts'],
    });
    assert.equal(passed.ok, true, JSON.stringify(passed));
    const work = passed.data.handoff;
    assert.deepEqual([work.to_agents, work.return_to, work.status, work.chain], [['audit'], 'alice', 'queued', ['alice', 'audit']]);

    const inbox = await ask(dir, { request_id: 'audit-list-1', action: 'listHandoffs', agent: 'audit', status: 'queued' });
    assert.deepEqual(
      inbox.data.handoffs.map((h) => h.handoff_id),
      [work.handoff_id],
    );
    const claim = await ask(dir, { request_id: 'audit-claim-1', action: 'claimHandoff', agent: 'audit', handoffId: work.handoff_id });
    assert.equal(claim.data.handoff.status, 'in_progress', JSON.stringify(claim));

    const back = await ask(dir, {
      request_id: 'audit-back-1',
      action: 'passOver',
      agent: 'audit',
      handoffId: work.handoff_id,
      message: '[pass_over: alice]\nSummary: reviewed, see the report\nReason: return',
      result: report,
    });
    assert.equal(back.ok, true, JSON.stringify(back));
    const returned = back.data.returned!;
    assert.deepEqual(
      [returned.to_agents, returned.from_agent, returned.status, returned.parent_uid, returned.notes],
      [['alice'], 'audit', 'queued', work.uid, 'reviewed, see the report'],
    );
    assert.deepEqual(returned.result, report, 'the report comes back with the work');
    assert.deepEqual(back.data.notify, { agent: 'alice', handoff: returned.handoff_id }, 'notify_on_return is on by default');
    assert.equal(back.data.completed!.status, 'ready_for_review');

    const aliceInbox = await ask(dir, { request_id: 'alice-list-1', action: 'listHandoffs', agent: 'alice', open: true });
    assert.deepEqual(
      aliceInbox.data.handoffs.map((h) => [h.handoff_id, h.reason, h.result?.context_summary]),
      [[returned.handoff_id, 'return', report.context_summary]],
    );
    const approve = await ask(dir, {
      request_id: 'alice-approve-1',
      action: 'transitionHandoff',
      agent: 'alice',
      handoffId: work.handoff_id,
      to: 'approved',
    });
    assert.equal(approve.ok, true, JSON.stringify(approve));
    const again = await ask(dir, {
      request_id: 'audit-pingpong-1',
      action: 'passOver',
      agent: 'alice',
      to: 'audit',
      handoffId: returned.handoff_id,
      reason: 'code_review',
      summary: 'once more',
    });
    assert.deepEqual([again.ok, again.reason], [false, 'CYCLE_DETECTED'], 'alice → audit → alice → audit is the ping-pong');

    watcher.proc.kill('SIGTERM');
    assert.deepEqual(await watcher.exited, { code: 0, signal: null });
    assert.match(watcher.lines.join('\n'), /stopped \(SIGTERM\): answered 6, refused 1,/);
  });
});
