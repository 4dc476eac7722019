// Timeouts of passed work as a black-box tester would try them (docs/contract.md §6): a real `agentsync request` per step,
// a real short `timeout_ms` override (1500 ms) and a real wait, with no special call to make the timeout happen; and
// under `agentsync watch`, the store itself changes on disk without any request at all.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import { CLI, configureAgents, initWorkspace, startChild } from './processHarness';

const TIMEOUT_MS = 1_500;

function request(ws: string, body: Record<string, unknown>): RequestResponse {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, 'request', '-'], { encoding: 'utf8', input: JSON.stringify(body) });
  return JSON.parse(r.stdout) as RequestResponse;
}

function storedHandoffs(ws: string): Handoff[] {
  return (JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8')) as { handoffs: Handoff[] }).handoffs;
}

function passToAudit(ws: string): Handoff {
  const r = request(ws, {
    action: 'passOver',
    agent: 'alice',
    to: 'audit',
    reason: 'code_review',
    summary: 'Review the login handler',
    override: { timeout_ms: TIMEOUT_MS },
  });
  assert.equal(r.ok, true, JSON.stringify(r));
  return r.data!.handoff as Handoff;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pass timeouts through `agentsync request` (real clock)', function () {
  this.timeout(60_000);
  let ws: string;

  beforeEach(() => {
    ws = initWorkspace('timeouts');
    configureAgents(ws); // alice, audit and the others: init configures codex, claude and copilot only
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('a claimed pass whose 1.5 s lease lapses comes back to alice with E010, seen by the next listHandoffs', async () => {
    const h = passToAudit(ws);
    const claim = request(ws, { action: 'claimHandoff', handoffId: h.handoff_id, agent: 'audit' });
    assert.equal(claim.ok, true, JSON.stringify(claim));
    const lease = (claim.data!.handoff as Handoff).lease_expires_at!;
    assert.equal(Date.parse(lease) - Date.parse((claim.data!.handoff as Handoff).claimed_at!), TIMEOUT_MS, 'the override is the lease');
    await sleep(TIMEOUT_MS + 300); // the subject: the 1.5 s lease running out
    const list = request(ws, { action: 'listHandoffs' });
    const all = list.data!.handoffs as Handoff[];
    const passed = all.find((x) => x.handoff_id === h.handoff_id)!;
    assert.equal(passed.status, 'escalated');
    assert.match(String(passed.state_history.at(-1)!.reason), /^E010 SUBAGENT_TIMEOUT: the lease of audit ran out/);
    assert.ok(Date.parse(passed.state_history.at(-1)!.timestamp) >= Date.parse(lease), 'not before the lease ran out');
    const back = all.find((x) => x.parent_uid === h.uid)!;
    assert.deepEqual([back.status, back.to_agents], ['queued', ['alice']]);
    assert.match(back.summary, /E010 SUBAGENT_TIMEOUT/);
    const late = request(ws, { action: 'completeHandoff', handoffId: h.handoff_id, agent: 'audit' });
    assert.equal(late.reason, 'illegal_transition', 'audit can no longer finish it');
  });

  it('an unclaimed pass comes back with E022 while `agentsync watch` runs, with no request sent at all', async () => {
    const h = passToAudit(ws);
    const watch = startChild(CLI, ['--dir', ws, 'watch', '--interval-ms', '200']);
    try {
      await watch.waitForLine((l) => l.startsWith('watching '), 20_000, 'the watch banner');
      const deadline = Date.now() + TIMEOUT_MS + 10_000;
      let passed: Handoff | undefined;
      while (Date.now() < deadline) {
        passed = storedHandoffs(ws).find((x) => x.handoff_id === h.handoff_id);
        if (passed?.status === 'escalated') break;
        await sleep(100);
      }
      assert.equal(passed?.status, 'escalated', `handoffs.json on disk: ${JSON.stringify(storedHandoffs(ws))}`);
      assert.match(String(passed.state_history.at(-1)!.reason), /^E022 RETURN_TIMEOUT: nobody claimed it within timeout_ms 1500/);
      const waited = Date.parse(passed.state_history.at(-1)!.timestamp) - Date.parse(h.created_at);
      assert.ok(waited >= TIMEOUT_MS, `not before its time (${waited} ms)`);
      assert.ok(storedHandoffs(ws).some((x) => x.parent_uid === h.uid && x.to_agents[0] === 'alice'));
    } finally {
      watch.proc.kill('SIGTERM');
      await watch.exited;
    }
  });
});
