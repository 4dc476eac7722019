// The history document of one handoff (docs/agentsync-documentation.md, "Show History"): the audit lines about it read
// back from disk (store.auditFor), its chain, its completion report summarised, and agent text kept inert.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { renderHandoffHistory } from '../../../../src/core/store/handoffHistoryText';
import { MAX_FINDING_LINES, summarizeReport } from '../../../../src/core/domain/reportSummary';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const findings = Object.fromEntries(Array.from({ length: MAX_FINDING_LINES + 3 }, (_, i) => [`k${i}`, { n: i, text: 'x'.repeat(100) }]));
const report = {
  status: 'partial',
  decision: 'PROCEED',
  context_summary: 'Reviewed login.ts\n## not a heading',
  findings,
  tokens_used: 1200,
  issues: ['retry path untested'],
  artifacts: {
    findings: [
      { severity: 'low', category: 'style', message: 'naming' },
      { severity: 'high', category: 'security', location: 'src/login.ts:3', message: 'token logged' },
    ],
  },
};

async function passedAndReturned(ws: TestWorkspace): Promise<{ work: Handoff; passed: Handoff }> {
  const { work, passed } = await ws.passedToAudit();
  assert.equal(
    (await ws.dispatch({ action: 'claimHandoff', handoffId: passed.handoff_id, agent: 'audit', request_id: 'claim-a' })).ok,
    true,
  );
  const refused = await ws.dispatch({ action: 'claimHandoff', handoffId: passed.handoff_id, agent: 'codex' });
  assert.equal(refused.ok, false);
  const done = await ws.dispatch({ action: 'returnHandoff', handoffId: passed.handoff_id, agent: 'audit', result: report });
  assert.equal(done.ok, true, JSON.stringify(done));
  return { work: ws.stored(work.handoff_id), passed: ws.stored(passed.handoff_id) };
}

describe('handoff history document', () => {
  after(removeTempDirs);

  it('store.auditFor: the lines about one handoff, refusals included, oldest first; others and broken lines left out', async () => {
    const ws = new TestWorkspace();
    const { passed } = await passedAndReturned(ws);
    const month = fs.readdirSync(ws.layout.auditDir).find((n) => n.endsWith('.jsonl'))!;
    fs.appendFileSync(path.join(ws.layout.auditDir, month), `{"cut off by a crash ${passed.uid}\n`);
    const lines = ws.store.auditFor(passed);
    assert.deepEqual(
      lines.filter((e) => !e.refused).map((e) => [e.action, e.agent]),
      [
        ['passOver', 'alice'],
        ['claimHandoff', 'audit'],
        ['returnHandoff', 'audit'],
      ],
    );
    assert.deepEqual(
      lines.filter((e) => e.refused).map((e) => [e.action, e.agent, e.reason]),
      [['claimHandoff', 'codex', 'already_claimed']],
    );
    assert.deepEqual(
      lines.map((e) => e.ts),
      lines.map((e) => e.ts).sort(),
    );
    assert.equal(ws.store.auditFor(passed, 2).length, 2);
    assert.deepEqual(ws.store.auditFor(passed, 2), lines.slice(-2));
    assert.deepEqual(ws.store.auditFor({ handoff_id: 'HO-20990101-001', uid: '01JNONE0000000000000000000' }), []);
  });

  it('renders chain, report, history and audit; agent text cannot add headings', async () => {
    const ws = new TestWorkspace();
    const { work, passed } = await passedAndReturned(ws);
    const all = ws.storedHandoffs();
    const returned = all.find((h) => h.parent_uid === passed.uid)!;
    const text = renderHandoffHistory(passed, all, ws.store.auditFor(passed));
    assert.match(text, new RegExp(`^# ${passed.handoff_id}: Review it\\n`));
    assert.ok(text.includes('- agents: Codex → Alice → Audit'), text);
    assert.ok(text.includes(`- passed on from ${work.handoff_id} (Alice, queued)`), text);
    assert.ok(text.includes('- returns to Alice'), text);
    assert.ok(text.includes(`- returned as ${returned.handoff_id} (Alice, queued)`), text);
    assert.ok(text.includes('**PROCEED (partial) · 1200 tokens used**'), text);
    assert.ok(text.includes('- retry path untested'), text);
    assert.ok(text.includes('Artifact findings: 1 high, 1 low'), text);
    assert.ok(text.includes('- \\[high\\] security at src/login.ts:3: token logged'), text);
    assert.ok(text.includes('- … and 3 more'), text);
    assert.ok(text.includes('by Codex via test: refused (already\\_claimed)'), text);
    assert.ok(text.includes('(request claim-a)'), text);
    assert.match(text, /## History \(3 entries, oldest first\)/);
    assert.match(text, /## Audit log \(4 lines in \.agentsync\/audit\/, oldest first\)/);
    const headings = text.split('\n').filter((l) => l.startsWith('#'));
    assert.deepEqual(
      headings.map((l) => l.split(' (')[0]),
      [`# ${passed.handoff_id}: Review it`, '## Chain', '## Completion report', '## History', '## Audit log'],
    );
  });

  it('summarizeReport: findings one line per key, values shortened; artifacts most severe first', () => {
    const s = summarizeReport(report as never);
    assert.equal(s.findings.length, MAX_FINDING_LINES + 1);
    assert.ok(s.findings[0].startsWith('k0: {"n":0,"text":"xxx'));
    assert.ok(s.findings[0].length <= 'k0: '.length + 80);
    assert.deepEqual(s.artifactFindings, ['[high] security at src/login.ts:3: token logged', '[low] style: naming']);
  });
});
