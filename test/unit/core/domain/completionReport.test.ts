// The completion report through the dispatcher (docs/contract.md §6): over the limits → E012
// CONTEXT_OVERFLOW, missing or misshapen fields → E021 INVALID_WORK_OUTPUT, and `findings` checked against the shape
// of the handoff's phase. Every refusal changes nothing.
import { strict as assert } from 'node:assert';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { completionReport, handoffIn } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const ID = 'HO-20260221-001';

async function complete(result: unknown, handoff: Partial<Handoff> = {}) {
  const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress', handoff)] });
  const bytes = ws.storeBytes();
  const res = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'claude', result });
  return { ws, res, unchanged: () => assert.deepEqual(ws.storeBytes(), bytes, 'nothing changed') };
}

describe('completion report: E012 CONTEXT_OVERFLOW and E021 INVALID_WORK_OUTPUT', () => {
  after(removeTempDirs);

  const overflows: [string, Record<string, unknown>, string, RegExp][] = [
    ['a context_summary over 500 estimated tokens', { context_summary: 'x'.repeat(2_004) }, 'result.context_summary', /about 501 tokens/],
    // Over the record's own 20,000-character cap: still E012 with the count, not a schema error.
    ['a context_summary of 30,000 characters', { context_summary: 'x'.repeat(30_000) }, 'result.context_summary', /about 7500 tokens/],
    ['findings over 64 KiB', { findings: { log: 'y'.repeat(70 * 1024) } }, 'result.findings', /over the 65536-byte \(64 KiB\) limit/],
    ['an issue over 2,000 characters', { issues: ['z'.repeat(2_001)] }, 'result.issues.0', /result\.issues\.0: .*2000/],
    ['more than 100 issues', { issues: Array.from({ length: 101 }, () => 'i') }, 'result.issues', /result\.issues: /],
  ];
  for (const [what, extra, field, message] of overflows) {
    it(`${what} → E012 CONTEXT_OVERFLOW naming ${field}`, async () => {
      const { res, unchanged } = await complete(completionReport('PROCEED', extra));
      assert.deepEqual([res.ok, res.reason, res.code, res.field], [false, 'CONTEXT_OVERFLOW', 'E012', field], JSON.stringify(res));
      assert.match(String(res.message), message);
      unchanged();
    });
  }

  const invalid: [string, Record<string, unknown>, string, RegExp][] = [
    ['no decision', { status: 'complete', context_summary: 'done' }, 'result.decision', /result\.decision: .*A report needs status/],
    ['no context_summary', { status: 'complete', decision: 'PROCEED' }, 'result.context_summary', /result\.context_summary: /],
    ['no status', { decision: 'PROCEED', context_summary: 'done' }, 'result.status', /result\.status: /],
    ['a decision outside PROCEED|STOP|CLARIFY', { ...completionReport(), decision: 'MAYBE' }, 'result.decision', /PROCEED/],
    ['an unknown report field', { ...completionReport(), verdict: 'ok' }, 'result.verdict', /unknown field\(s\) "verdict"/],
    ['findings that are not an object', { ...completionReport(), findings: ['a'] }, 'result.findings', /result\.findings: /],
  ];
  for (const [what, result, field, message] of invalid) {
    it(`${what} → E021 INVALID_WORK_OUTPUT naming ${field}`, async () => {
      const { res, unchanged } = await complete(result);
      assert.deepEqual([res.ok, res.reason, res.code, res.field], [false, 'INVALID_WORK_OUTPUT', 'E021', field], JSON.stringify(res));
      assert.match(String(res.message), message);
      unchanged();
    });
  }

  it('the same codes on returnHandoff and on a pass back to return_to (the return)', async () => {
    const ws = new TestWorkspace();
    const p = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'code_review', summary: 'review' });
    const id = (p.data!.handoff as Handoff).handoff_id;
    await ws.dispatch({ action: 'claimHandoff', handoffId: id, agent: 'audit' });
    const r1 = await ws.dispatch({ action: 'returnHandoff', handoffId: id, agent: 'audit', result: { status: 'complete' } });
    assert.deepEqual([r1.reason, r1.code], ['INVALID_WORK_OUTPUT', 'E021'], JSON.stringify(r1));
    const long = completionReport('PROCEED', { context_summary: 'w'.repeat(4_000) });
    const r2 = await ws.dispatch({ action: 'passOver', agent: 'audit', to: 'alice', handoffId: id, summary: 'done', result: long });
    assert.deepEqual([r2.reason, r2.code], ['CONTEXT_OVERFLOW', 'E012'], JSON.stringify(r2));
    assert.equal(ws.stored(id).status, 'in_progress', 'nothing was returned');
  });

  it('the report echoes task_id and phase (docs/contract.md §6); an echo that names another task or phase is E021', async () => {
    const wrongTask = await complete(completionReport('PROCEED', { task_id: 'AS-999' }));
    assert.deepEqual([wrongTask.res.reason, wrongTask.res.field], ['INVALID_WORK_OUTPUT', 'result.task_id'], JSON.stringify(wrongTask.res));
    assert.match(String(wrongTask.res.message), /is task "AS-210"/);
    const wrongPhase = await complete(completionReport('PROCEED', { phase: 'write', findings: { implementation_notes: [] } }), {
      phase: 'research',
    });
    assert.deepEqual(
      [wrongPhase.res.reason, wrongPhase.res.field],
      ['INVALID_WORK_OUTPUT', 'result.phase'],
      JSON.stringify(wrongPhase.res),
    );
    const echoed = await complete(
      completionReport('PROCEED', { task_id: 'AS-210', phase: 'research', findings: { recommendations: [] } }),
      {
        phase: 'research',
      },
    );
    assert.equal(echoed.res.ok, true, JSON.stringify(echoed.res));
    assert.deepEqual([echoed.ws.stored(ID).result?.task_id, echoed.ws.stored(ID).result?.phase], ['AS-210', 'research']);
  });
});

/** Full example findings, one per phase. */
const SEED_FINDINGS = {
  research: {
    existing_implementations: [{ file: 'src/lib/auth.ts', description: 'Basic session utils', relevance: 'high' }],
    conflicts: [],
    patterns_found: [{ file: 'src/server/routers/user.ts', pattern: 'tRPC router with Zod', recommendation: 'Follow this' }],
    recommendations: ['Extend auth.ts', 'Create auth router'],
  },
  write: {
    files_created: [{ path: 'src/server/routers/auth.ts', purpose: 'login/logout' }],
    files_modified: [{ path: 'src/lib/auth.ts', changes: 'signToken/verifyToken' }],
    tests_written: [{ path: 'auth.test.ts', test_count: 6, coverage_areas: ['success', 'failure'] }],
    implementation_notes: [],
  },
  validate: {
    checks: {
      types: { passed: true, errors: [], warnings: [] },
      lint: { passed: true, errors: [], warnings: ['unused import'] },
      tests: { passed: true, total: 6, passed_count: 6, failed_count: 0, coverage: 87, failures: [] },
      security: { passed: true, issues: [] },
    },
    overall_passed: true,
    blocking_issues: [],
    warnings: ['unused import'],
  },
  parallel: {
    results: [
      { task_id: 'a', type: 'lint', passed: true, summary: 'ok', details: {} },
      { task_id: 'b', type: 'tests', passed: false, summary: '1 failing', details: {} },
    ],
    aggregation: { total: 2, passed: 1, failed: 1, rule: 'all', overall_passed: false },
  },
} as const;

describe('completion report: findings checked against the shape of the phase (docs/contract.md §6)', () => {
  after(removeTempDirs);

  for (const [phase, findings] of Object.entries(SEED_FINDINGS)) {
    it(`complete example ${phase} findings are accepted for a ${phase} handoff`, async () => {
      const { res } = await complete(completionReport('PROCEED', { findings }), { phase: phase as Handoff['phase'] });
      assert.equal(res.ok, true, JSON.stringify(res));
    });
  }

  const refused: [string, string, Record<string, unknown>, RegExp][] = [
    ['research', 'empty findings', {}, /none of existing_implementations, conflicts, patterns_found, recommendations is given/],
    [
      'research',
      'a relevance outside high|medium|low',
      { existing_implementations: [{ file: 'a', description: 'b', relevance: 'huge' }] },
      /existing_implementations\.0\.relevance/,
    ],
    ['write', 'a test without its test_count', { tests_written: [{ path: 't.ts' }] }, /tests_written\.0\.test_count/],
    ['validate', 'no checks at all', { overall_passed: true }, /checks: /],
    [
      'validate',
      'a check that does not say whether it passed',
      { checks: { tests: { errors: [] } }, overall_passed: true },
      /checks\.tests\.passed/,
    ],
    [
      'validate',
      'overall_passed true while a check failed',
      { checks: { tests: { passed: false }, lint: { passed: true } }, overall_passed: true },
      /overall_passed: is true, but tests did not pass/,
    ],
    [
      'parallel',
      'an aggregation that does not add up',
      { ...SEED_FINDINGS.parallel, aggregation: { total: 2, passed: 2, failed: 0, overall_passed: true } },
      /aggregation: says 2 total, 2 passed/,
    ],
  ];
  for (const [phase, what, findings, message] of refused) {
    it(`a ${phase} report with ${what} → E021 naming result.findings`, async () => {
      const { res, unchanged } = await complete(completionReport('PROCEED', { findings }), { phase: phase as Handoff['phase'] });
      assert.deepEqual(
        [res.ok, res.reason, res.code, res.field, res.phase],
        [false, 'INVALID_WORK_OUTPUT', 'E021', 'result.findings', phase],
        JSON.stringify(res),
      );
      assert.match(String(res.message), message);
      assert.match(String(res.message), new RegExp(`A ${phase} report has `), 'the message shows the shape to send');
      unchanged();
    });
  }

  it('without a phase on the handoff, the report’s own phase decides; without either, findings are free-form', async () => {
    const byReport = await complete(completionReport('PROCEED', { phase: 'validate', findings: { risk: 'low' } }));
    assert.equal(byReport.res.reason, 'INVALID_WORK_OUTPUT', JSON.stringify(byReport.res));
    const free = await complete(completionReport('PROCEED', { findings: { risk: 'low' } }));
    assert.equal(free.res.ok, true, JSON.stringify(free.res));
  });

  it('a blocked report may carry no findings (it says why it is blocked); findings it does carry are checked', async () => {
    const empty = await complete(completionReport('CLARIFY', { findings: {} }), { phase: 'validate' });
    assert.equal(empty.res.ok, true, JSON.stringify(empty.res));
    assert.equal(empty.ws.stored(ID).status, 'blocked');
    const wrong = await complete(completionReport('CLARIFY', { findings: { checks: {} } }), { phase: 'validate' });
    assert.equal(wrong.res.reason, 'INVALID_WORK_OUTPUT', JSON.stringify(wrong.res));
  });
});
