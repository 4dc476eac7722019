// `agentsync snooze` (docs/contract.md §8) as a user runs it: the real CLI as a child process, the verb derived from the
// action catalog's snooze move, the store on disk.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { initWorkspace, runCliIn } from './processHarness';

describe('agentsync snooze (docs/contract.md §8)', function () {
  this.timeout(120_000);
  let ws: string;
  let id: string;

  before(() => {
    ws = initWorkspace('snooze');
    const made = runCliIn(ws, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'Wait for the release', '--quiet']);
    assert.equal(made.code, 0, made.stderr);
    id = made.stdout.trim();
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('snooze --help says what until takes', () => {
    const help = runCliIn(ws, ['snooze', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /agentsync snooze <handoff-id> --agent <id> --until <text>/);
    assert.match(help.stdout, /30m, 2h, 1d, 1w/);
  });

  it('without --until it is a usage error and nothing changes', () => {
    const before = fs.readFileSync(`${ws}/.agentsync/handoffs.json`, 'utf8');
    const run = runCliIn(ws, ['snooze', id, '--agent', 'claude']);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /--until <text> is required/);
    assert.equal(fs.readFileSync(`${ws}/.agentsync/handoffs.json`, 'utf8'), before);
  });

  it('an unreadable --until is refused naming the field', () => {
    const run = runCliIn(ws, ['snooze', id, '--agent', 'claude', '--until', 'soon']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /agentsync: invalid_request: until: "soon" is neither a duration/);
  });

  it('snooze --until 2h stores snoozed_until two hours on and prints the handoff', () => {
    const t0 = Date.now();
    const run = runCliIn(ws, ['snooze', id, '--agent', 'claude', '--until', '2h']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^snoozed ${id}`));
    const shown = runCliIn(ws, ['--json', 'list']);
    const h = (JSON.parse(shown.stdout) as { data: { handoffs: Handoff[] } }).data.handoffs.find((x) => x.handoff_id === id)!;
    const until = Date.parse(h.snoozed_until!);
    assert.ok(until >= t0 + 2 * 3_600_000 && until <= Date.now() + 2 * 3_600_000, h.snoozed_until!);
    assert.equal(h.status, 'queued');
  });
});
