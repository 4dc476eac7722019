// `agentsync pass`, `return` and `assign` (docs/contract.md §6, §8) as a user runs them: the real CLI as a child process, the
// store on disk, each verb going through the dispatcher's action of the same meaning.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import { type CliRun, configureAgents, initWorkspace, runCliIn } from './processHarness';

interface Body {
  ok: boolean;
  action: string;
  reason?: string;
  data: { handoff: Handoff; returned?: Handoff | null };
}

function json(ws: string, args: string[], input?: string): { run: CliRun; body: Body } {
  const run = runCliIn(ws, ['--json', ...args], input);
  return { run, body: JSON.parse(run.stdout) as Body };
}

const report = { status: 'complete', decision: 'PROCEED', context_summary: 'reviewed, two nits', findings: {}, issues: [] };

describe('agentsync pass / return (docs/contract.md §6)', function () {
  this.timeout(120_000);
  let ws: string;

  beforeEach(() => {
    ws = initWorkspace('deleg');
    configureAgents(ws);
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('pass --help and return --help describe the verbs', () => {
    const pass = runCliIn(ws, ['pass', '--help']);
    assert.equal(pass.code, 0, pass.stderr);
    assert.match(pass.stdout, /agentsync pass .*--to <agent>/);
    assert.match(pass.stdout, /passOver/);
    const ret = runCliIn(ws, ['return', '--help']);
    assert.equal(ret.code, 0, ret.stderr);
    assert.match(ret.stdout, /agentsync return <handoff-id> --agent <id>/);
  });

  it('alice passes to audit, audit claims and returns with a report from stdin: the report reaches alice', () => {
    const passed = json(ws, [
      'pass',
      '--agent',
      'alice',
      '--to',
      'audit',
      '--reason',
      'code_review',
      '--summary',
      'review login',
      '--files',
      'src/a.ts',
    ]);
    assert.equal(passed.run.code, 0, passed.run.stdout + passed.run.stderr);
    const h = passed.body.data.handoff;
    assert.equal(h.status, 'queued');
    assert.deepEqual(h.to_agents, ['audit']);
    assert.equal(h.return_to, 'alice');
    assert.deepEqual(h.files, ['src/a.ts']);

    assert.equal(runCliIn(ws, ['claim', h.handoff_id, '--agent', 'audit']).code, 0);
    const returned = json(ws, ['return', h.handoff_id, '--agent', 'audit', '--result', '-'], JSON.stringify(report));
    assert.equal(returned.run.code, 0, returned.run.stdout + returned.run.stderr);
    assert.equal(returned.body.action, 'returnHandoff');
    const stored = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8')) as { handoffs: Handoff[] };
    const done = stored.handoffs.find((x) => x.handoff_id === h.handoff_id)!;
    assert.deepEqual(done.result?.decision, 'PROCEED');
    const back = returned.body.data.returned!;
    assert.deepEqual(back.to_agents, ['alice'], 'the return handoff goes to alice');
    assert.ok(stored.handoffs.some((x) => x.handoff_id === back.handoff_id));
  });

  it('pass takes its receiver from a [pass_over: x] message', () => {
    const passed = json(ws, ['pass', '--agent', 'alice', '--message', '[pass_over: tester] run the suite\nReason: validation']);
    assert.equal(passed.run.code, 0, passed.run.stdout + passed.run.stderr);
    assert.deepEqual(passed.body.data.handoff.to_agents, ['tester']);
  });

  it('refusals and usage errors exit non-zero and change nothing', () => {
    const before = fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8');
    const self = json(ws, ['pass', '--agent', 'alice', '--to', 'alice', '--reason', 'r', '--summary', 's']);
    assert.equal(self.run.code, 1);
    assert.equal(self.body.ok, false);
    assert.equal(self.body.reason, 'CYCLE_DETECTED');
    const noTo = runCliIn(ws, ['pass', '--agent', 'alice', '--summary', 's']);
    assert.equal(noTo.code, 2);
    assert.match(noTo.stderr, /--to <agent>/);
    const noId = runCliIn(ws, ['return', '--agent', 'audit']);
    assert.equal(noId.code, 2);
    const notPassed = json(ws, ['create', '--from', 'alice', '--to', 'bob', '--summary', 'plain']);
    const plain = json(ws, ['return', notPassed.body.data.handoff.handoff_id, '--agent', 'bob']);
    assert.equal(plain.run.code, 1);
    assert.equal(plain.body.reason, 'RETURN_CONTEXT_LOST');
    const noReport = runCliIn(ws, ['return', notPassed.body.data.handoff.handoff_id, '--agent', 'bob', '--result', 'no-such-report.json']);
    assert.equal(noReport.code, 2, noReport.stderr);
    assert.match(noReport.stderr, /--result no-such-report\.json: cannot read it \(ENOENT\); give a JSON report file/);
    assert.notEqual(before, '', 'store existed');
  });
});

describe('agentsync assign (docs/contract.md §5, §8)', function () {
  this.timeout(120_000);
  let ws: string;

  before(() => {
    ws = initWorkspace('assign');
    configureAgents(ws);
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('a human assigns a blocked handoff; an agent is refused', () => {
    const created = json(ws, ['create', '--from', 'alice', '--caps', 'gpu_tuning', '--summary', 'tune the kernel']);
    const h = created.body.data.handoff;
    assert.equal(h.status, 'blocked');
    const refused = json(ws, ['assign', h.handoff_id, '--to', 'bob', '--agent', 'bob']);
    assert.equal(refused.run.code, 1);
    assert.equal(refused.body.reason, 'not_assigned');
    const ok = json(ws, ['assign', h.handoff_id, '--to', 'bob,tester', '--agent', 'human']);
    assert.equal(ok.run.code, 0, ok.run.stdout + ok.run.stderr);
    assert.equal(ok.body.data.handoff.status, 'queued');
    assert.deepEqual(ok.body.data.handoff.to_agents, ['bob', 'tester']);
    assert.equal(ok.body.data.handoff.owner_mode, 'shared');
  });
});
