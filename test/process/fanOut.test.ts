// Fan-out and join (docs/contract.md §6) as a user runs it: `agentsync pass --to a,b,c` as a real process, each child
// claimed and returned by its own process, and one joined return; a child whose lease runs out (the process clock moved
// forward with the test-only AGENTSYNC_TEST_CLOCK_OFFSET_MS, src/cli/testClock.ts) is named in the join.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { CLI, configureAgents, runCliIn, runCliSync, tempWorkspace } from './processHarness';

const report = (summary: string) =>
  JSON.stringify({ status: 'complete', decision: 'PROCEED', context_summary: summary, findings: {}, issues: [] });

function run(ws: string, args: string[], options: { input?: string; offsetMs?: number } = {}) {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, ...args], {
    encoding: 'utf8',
    input: options.input,
    env: { ...process.env, AGENTSYNC_TEST_CLOCK_OFFSET_MS: String(options.offsetMs ?? 0) },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function stored(ws: string): Handoff[] {
  return (JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8')) as { handoffs: Handoff[] }).handoffs;
}

const joins = (ws: string) => stored(ws).filter((h) => h.group?.join);

describe('agentsync pass --to a,b,c: fan-out and one joined return (real processes)', function () {
  this.timeout(120_000);
  let ws: string;

  beforeEach(() => {
    ws = tempWorkspace('fanout');
    runCliSync(['--dir', ws, 'init']);
    configureAgents(ws);
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('three children, each claimed and returned by its own process; the third return brings ONE joined return to alice', () => {
    const passed = run(ws, [
      'pass',
      '--agent',
      'alice',
      '--to',
      'audit,tester,scout',
      '--reason',
      'parallel',
      '--summary',
      'Look at login',
    ]);
    assert.equal(passed.code, 0, passed.stdout + passed.stderr);
    assert.match(passed.stdout, /store version 3/, 'the first group says the format changed');
    const ids = passed.stdout.match(/HO-\d{8}-\d{3}/g)!;
    assert.equal(new Set(ids).size, 3, passed.stdout);
    const agents = ['audit', 'tester', 'scout'];
    for (const [i, id] of ids.entries()) assert.equal(runCliIn(ws, ['claim', id, '--agent', agents[i]]).code, 0);
    const first = run(ws, ['return', ids[0], '--agent', 'audit', '--result', '-'], { input: report('audit: fine') });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /its group of 3 joins back to alice when the last one has ended/);
    assert.equal(run(ws, ['return', ids[1], '--agent', 'tester', '--result', '-'], { input: report('tester: 12 tests') }).code, 0);
    assert.equal(joins(ws).length, 0, 'no return before the last child');
    const last = run(ws, ['return', ids[2], '--agent', 'scout', '--result', '-'], { input: report('scout: 2 callers') });
    assert.equal(last.code, 0, last.stdout + last.stderr);
    const joined = joins(ws);
    assert.equal(joined.length, 1);
    assert.deepEqual(joined[0].to_agents, ['alice']);
    assert.equal(joined[0].result!.phase, 'parallel');
    assert.match(joined[0].result!.context_summary, /audit: fine[\s\S]*tester: 12 tests[\s\S]*scout: 2 callers/);
    assert.match(last.stdout, new RegExp(`back to ${joined[0].handoff_id}`));
  });

  /** alice's fan-out to the receivers `to` names (`--to` options): its children. */
  function passFromAlice(to: string[], summary: string): Handoff[] {
    const passed = run(ws, ['--json', 'pass', '--agent', 'alice', ...to, '--reason', 'r', '--summary', summary]);
    return (JSON.parse(passed.stdout) as { data: { handoffs: Handoff[] } }).data.handoffs;
  }

  it('a child whose lease runs out is named in the join, which still comes', () => {
    const [audit, scout] = passFromAlice(['--to', 'audit', '--to', 'scout'], 'Two looks');
    assert.equal(runCliIn(ws, ['claim', audit.handoff_id, '--agent', 'audit']).code, 0);
    assert.equal(runCliIn(ws, ['claim', scout.handoff_id, '--agent', 'scout']).code, 0);
    assert.equal(run(ws, ['return', audit.handoff_id, '--agent', 'audit', '--result', '-'], { input: report('audit: fine') }).code, 0);
    // Two hours on: scout's lease (the default pass timeout) has run out; any request sweeps it.
    const list = run(ws, ['--json', 'list'], { offsetMs: 2 * 3_600_000 });
    assert.equal(list.code, 0, list.stdout + list.stderr);
    const all = stored(ws);
    assert.equal(all.find((h) => h.handoff_id === scout.handoff_id)!.status, 'escalated');
    const joined = joins(ws);
    assert.equal(joined.length, 1, 'one joined return, no separate timeout return');
    assert.match(joined[0].summary, new RegExp(`${scout.handoff_id} \\(scout\\) timed out`));
    assert.equal(all.filter((h) => h.reason === 'return').length, 1);
  });

  it('a child the archive pass moved out before the join is still named and counted in it', () => {
    const file = path.join(ws, '.agentsync.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...config, archive: { after_days: 0 } }, null, 2));
    const [audit, tester, scout] = passFromAlice(['--to', 'audit,tester,scout'], 'Three looks');
    assert.equal(run(ws, ['withdraw', audit.handoff_id, '--agent', 'alice', '--reason', 'not needed']).code, 0);
    // after_days 0: the next write moves the withdrawn child to .agentsync/archive/ while its siblings still work.
    assert.equal(runCliIn(ws, ['claim', tester.handoff_id, '--agent', 'tester']).code, 0);
    assert.equal(
      stored(ws).find((h) => h.handoff_id === audit.handoff_id),
      undefined,
      'the withdrawn child was archived',
    );
    assert.equal(runCliIn(ws, ['claim', scout.handoff_id, '--agent', 'scout']).code, 0);
    assert.equal(run(ws, ['return', tester.handoff_id, '--agent', 'tester', '--result', '-'], { input: report('tester: ok') }).code, 0);
    assert.equal(joins(ws).length, 0, 'no return before the last child');
    const last = run(ws, ['return', scout.handoff_id, '--agent', 'scout', '--result', '-'], { input: report('scout: ok') });
    assert.equal(last.code, 0, last.stdout + last.stderr);
    const joined = joins(ws);
    assert.equal(joined.length, 1);
    assert.match(joined[0].summary, /^Joined return of 3 parallel passes: 2 returned/);
    assert.match(joined[0].summary, new RegExp(`${audit.handoff_id} \\(audit\\) withdrawn`));
    const findings = joined[0].result!.findings as { aggregation: { total: number }; reports: Record<string, unknown> };
    assert.equal(findings.aggregation.total, 3);
    assert.deepEqual(Object.keys(findings.reports), [audit.handoff_id, tester.handoff_id, scout.handoff_id]);
  });

  it('a group whose joined return was archived is not joined again when a child ends again later', () => {
    const file = path.join(ws, '.agentsync.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...config, archive: { after_days: 0 } }, null, 2));
    const [audit, scout] = passFromAlice(['--to', 'audit,scout'], 'Two looks');
    assert.equal(runCliIn(ws, ['claim', audit.handoff_id, '--agent', 'audit']).code, 0);
    assert.equal(runCliIn(ws, ['claim', scout.handoff_id, '--agent', 'scout']).code, 0);
    assert.equal(run(ws, ['return', audit.handoff_id, '--agent', 'audit', '--result', '-'], { input: report('audit: ok') }).code, 0);
    assert.equal(run(ws, ['return', scout.handoff_id, '--agent', 'scout', '--result', '-'], { input: report('scout: ok') }).code, 0);
    const [joined] = joins(ws);
    assert.ok(joined, 'the group joined');
    // The joined return ends (escalated by a person), and the next write moves it to the archive (after_days 0).
    const ended = run(ws, ['escalate', joined.handoff_id, '--agent', 'human', '--reason', 'seen, done']);
    assert.equal(ended.code, 0, ended.stdout + ended.stderr);
    assert.equal(run(ws, ['create', '--from', 'human', '--to', 'alice', '--summary', 'another']).code, 0);
    assert.equal(joins(ws).length, 0, 'the joined return was archived');
    // A child still in the store ends again: the group was joined once, and stays so.
    const again = run(ws, ['escalate', scout.handoff_id, '--agent', 'human', '--reason', 'a late look']);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(joins(ws).length, 0, 'no second joined return');
    assert.equal(stored(ws).filter((h) => h.reason === 'return' && h.to_agents.includes('alice')).length, 0);
  });

  it('a duplicate receiver is refused and nothing is stored', () => {
    const r = run(ws, ['--json', 'pass', '--agent', 'alice', '--to', 'audit,Audit', '--reason', 'r', '--summary', 's']);
    assert.notEqual(r.code, 0);
    assert.match(r.stdout, /audit is named twice/);
    assert.equal(stored(ws).length, 0);
  });
});
