// Withdrawing a pass (docs/contract.md §6, "Withdraw") as the real CLI, drop-zone request and hook processes do it: the
// `withdraw` verb, `agentsync request`, the receiver told at its next tool hook (once), its stop no longer held.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { CLI, REPO_ROOT, runCliIn, runCliSync, tempWorkspace, withoutSession } from './processHarness';

const REPORT = JSON.stringify({ status: 'complete', decision: 'PROCEED', context_summary: 'done', findings: {}, issues: [] });

function fixture(name: string, ws: string): string {
  return fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/hooks/claude', `${name}.json`), 'utf8').replaceAll('__WORKSPACE__', ws);
}

function hook(ws: string, event: string, input: string): Record<string, unknown> | null {
  const env = withoutSession({ ...process.env });
  const r = spawnSync(process.execPath, [CLI, 'hook', event, '--agent', 'claude', '--format', 'claude'], {
    cwd: ws,
    input,
    encoding: 'utf8',
    env,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : null;
}

function request(ws: string, body: object): Record<string, unknown> & { ok: boolean; data?: Record<string, unknown> } {
  const r = runCliIn(ws, ['request', '-'], JSON.stringify(body));
  return JSON.parse(r.stdout) as Record<string, unknown> & { ok: boolean; data?: Record<string, unknown> };
}

/** codex passes work to claude, which claims it; the workspace requires a handoff before a session ends. */
function passedAndClaimed(): { ws: string; id: string } {
  const ws = tempWorkspace('withdraw');
  runCliSync(['--dir', ws, 'init']);
  const file = path.join(ws, '.agentsync.json');
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), requireHandoffOnEndSession: true }, null, 2));
  const id = runCliIn(ws, [
    'pass',
    '--agent',
    'codex',
    '--to',
    'claude',
    '--reason',
    'review',
    '--summary',
    'Review auth',
    '--files',
    'src/auth/session.ts',
    '--quiet',
  ]).stdout.trim();
  assert.match(id, /^HO-/);
  assert.equal(runCliIn(ws, ['claim', id, '--agent', 'claude']).code, 0);
  return { ws, id };
}

describe('withdrawing a pass (process)', function () {
  this.timeout(120_000);
  const made: string[] = [];
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('agentsync withdraw: the passer withdraws, the receiver cannot; its later complete is refused withdrawn and nothing returns', () => {
    const { ws, id } = passedAndClaimed();
    made.push(ws);
    const help = runCliIn(ws, ['withdraw', '--help']);
    assert.match(help.stdout, /agentsync withdraw <handoff-id> --agent <id> --reason <text>/);
    const byReceiver = runCliIn(ws, ['withdraw', id, '--agent', 'claude', '--reason', 'mine']);
    assert.equal(byReceiver.code, 1);
    assert.match(byReceiver.stderr, /not_assigned: claude may not withdraw/);
    const ok = runCliIn(ws, ['withdraw', id, '--agent', 'codex', '--reason', 'not needed any more']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /withdrawn/);
    assert.match(ok.stdout, /note: handoffs.json is now written as store version 3/);
    const late = runCliIn(ws, ['--json', 'complete', id, '--agent', 'claude', '--result', '-'], REPORT);
    assert.equal(late.code, 1);
    const body = JSON.parse(late.stdout) as { reason: string; withdrawn_by: string };
    assert.deepEqual([body.reason, body.withdrawn_by], ['withdrawn', 'codex']);
    const store = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8')) as {
      version: number;
      handoffs: Handoff[];
    };
    assert.equal(store.version, 3);
    assert.deepEqual(
      store.handoffs.map((h) => [h.handoff_id, h.status]),
      [[id, 'withdrawn']],
      'no return handoff',
    );
    assert.match(fs.readFileSync(path.join(ws, 'AgentTracker.md'), 'utf8'), new RegExp(`${id} .*status: withdrawn`));
  });

  it('by request: the receiver is told at its next tool hook, once, and its stop is no longer held', () => {
    const { ws, id } = passedAndClaimed();
    made.push(ws);
    const held = hook(ws, 'stop', fixture('stop', ws));
    assert.equal(held?.decision, 'block', 'before: the stop gate holds the claimed pass');
    const r = request(ws, { action: 'withdrawPass', handoffId: id, agent: 'codex', reason: 'plan changed' });
    assert.equal(r.ok, true, JSON.stringify(r));
    const told = hook(ws, 'pre-tool-use', fixture('pre-tool-use', ws)) as { hookSpecificOutput?: { additionalContext?: string } } | null;
    const text = told?.hookSpecificOutput?.additionalContext ?? '';
    assert.match(text, new RegExp(`${id} was withdrawn by codex .*"plan changed"`));
    assert.match(text, /Stop working on it/);
    const again = hook(ws, 'pre-tool-use', fixture('pre-tool-use', ws)) as { hookSpecificOutput?: { additionalContext?: string } } | null;
    assert.doesNotMatch(JSON.stringify(again ?? {}), /withdrawn/, 'told once');
    assert.deepEqual(hook(ws, 'stop', fixture('stop', ws)), {}, 'the stop gate no longer holds it');
  });

  it("the receiver's next CLI request tells it on stderr, once", () => {
    const { ws, id } = passedAndClaimed();
    made.push(ws);
    assert.equal(runCliIn(ws, ['withdraw', id, '--agent', 'codex', '--reason', 'dropped']).code, 0);
    const first = runCliIn(ws, ['list', '--agent', 'claude']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, new RegExp(`${id} was withdrawn by codex`));
    const second = runCliIn(ws, ['list', '--agent', 'claude']);
    assert.doesNotMatch(second.stderr, /withdrawn/);
  });
});
