// validate_output with output_schema (docs/contract.md §6, "What a receiver may do"): an untrusted schema of a
// documented subset, checked by an interpreter within a step budget, and a report whose findings do not fit is E021.
import * as assert from 'node:assert/strict';
import { OUTPUT_SCHEMA_LIMITS, outputProblems, schemaProblems } from '../../../../src/core/domain/outputSchema';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const SCHEMA = {
  type: 'object',
  required: ['verdict', 'score'],
  additionalProperties: false,
  properties: {
    verdict: { enum: ['pass', 'fail'] },
    score: { type: 'integer', minimum: 0, maximum: 10 },
    notes: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 3 },
  },
};

describe('output_schema: the subset, the interpreter, and E021 on a report that does not fit', () => {
  after(removeTempDirs);

  it('refuses keywords outside the subset (pattern, $ref), wrong keyword values and a schema over 16 KiB', () => {
    assert.deepEqual(schemaProblems(SCHEMA), []);
    assert.match(schemaProblems({ type: 'string', pattern: '(a+)+$' }).join(), /output_schema\.pattern: not in the supported subset/);
    assert.match(schemaProblems({ $ref: 'http://example.com/x' }).join(), /\$ref: not in the supported subset/);
    assert.match(schemaProblems({ type: 'strnig' }).join(), /type: one of/);
    assert.match(schemaProblems({ description: 'x'.repeat(OUTPUT_SCHEMA_LIMITS.bytes) }).join(), /bytes as JSON; the limit is 16384/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20; i++) deep = { type: 'array', items: deep };
    assert.match(schemaProblems(deep).join(), /nested deeper than 12/);
  });

  it('names each mismatch with its path', () => {
    assert.deepEqual(outputProblems(SCHEMA, { verdict: 'pass', score: 7, notes: ['ok'] }), []);
    assert.deepEqual(outputProblems(SCHEMA, { verdict: 'maybe', score: 7.5, extra: 1, notes: ['x'.repeat(30)] }), [
      'findings.verdict: expected one of ["pass","fail"]',
      'findings.score: expected integer, got number',
      'findings.extra: not allowed (additionalProperties is false)',
      'findings.notes[0]: longer than 20 characters',
    ]);
    assert.deepEqual(outputProblems(SCHEMA, {}), ['findings.verdict: required', 'findings.score: required']);
  });

  it('stops within its step budget on a large report', () => {
    const wide = { type: 'array', items: { type: 'array', items: { type: 'number' } } };
    const findings = Array.from({ length: 1_000 }, () => Array.from({ length: 300 }, () => 1));
    const started = Date.now();
    assert.match(outputProblems(wide, findings).join(), /too costly to check/);
    assert.ok(Date.now() - started < 2_000, 'bounded');
  });

  it('a pass with validate_output: the report that does not fit is E021 and changes nothing; one that fits returns', async () => {
    const ws = new TestWorkspace();
    const passed = await ws.dispatch({
      action: 'passOver',
      agent: 'alice',
      to: 'audit',
      reason: 'review',
      summary: 'Score the module',
      override: { validate_output: true, output_schema: SCHEMA },
    });
    assert.equal(passed.ok, true, JSON.stringify(passed));
    assert.match(String(passed.data!.notice), /store version 3/);
    const h = passed.data!.handoff as Handoff;
    assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: h.handoff_id, agent: 'audit' })).ok, true);
    const report = (findings: unknown) => ({ status: 'complete', decision: 'PROCEED', context_summary: 'scored', findings, issues: [] });
    const bad = await ws.dispatch({ action: 'returnHandoff', handoffId: h.handoff_id, agent: 'audit', result: report({ verdict: 'meh' }) });
    assert.equal(bad.ok, false);
    assert.deepEqual([bad.reason, bad.code], ['INVALID_WORK_OUTPUT', 'E021'], JSON.stringify(bad));
    assert.match(String(bad.message), /findings.score: required; findings.verdict: expected one of/);
    assert.equal(ws.stored(h.handoff_id).status, 'in_progress', 'nothing changed');
    const good = await ws.dispatch({
      action: 'returnHandoff',
      handoffId: h.handoff_id,
      agent: 'audit',
      result: report({ verdict: 'pass', score: 9 }),
    });
    assert.equal(good.ok, true, JSON.stringify(good));
  });

  it('a schema outside the subset is refused at pass time, and in .agentsync.json fails closed (E030)', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch({
      action: 'passOver',
      agent: 'alice',
      to: 'audit',
      reason: 'review',
      summary: 's',
      override: { validate_output: true, output_schema: { type: 'string', pattern: '^(a+)+$' } },
    });
    assert.equal(r.ok, false);
    assert.match(JSON.stringify(r), /pattern: not in the supported subset/);
    const file = new TestWorkspace({ config: { passOver: { defaults: { output_schema: { $ref: '#' } } } } });
    const refused = await file.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'review', summary: 's' });
    assert.equal(refused.code, 'E030', JSON.stringify(refused));
  });

  it('an override may not drop or replace the configured output check (E031)', async () => {
    const ws = new TestWorkspace({ config: { passOver: { defaults: { validate_output: true, output_schema: SCHEMA } } } });
    for (const override of [{ validate_output: false }, { output_schema: { type: 'object' } }]) {
      const r = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'review', summary: 's', override });
      assert.equal(r.code, 'E031', JSON.stringify(r));
    }
  });
});
