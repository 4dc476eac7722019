// Chains in AgentTracker.md as Mermaid flowcharts (docs/agentsync-documentation.md, "The tracker"), and the chain
// index behind them: a real pass and return through the dispatcher, then the tracker file read back from disk.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { chainIndex, chainOf, chainRoot } from '../../../../src/core/domain/handoffChains';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import {
  adoptRenderedSection,
  findSection,
  HANDOFFS_HEADING,
  renderHandoffsSection,
  updateTrackerText,
} from '../../../../src/core/domain/trackerRenderer';
import { renderChainDiagrams } from '../../../../src/core/domain/trackerChainDiagram';
import { makeHandoff } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const report = { status: 'complete', decision: 'PROCEED', context_summary: 'reviewed', findings: {}, issues: [] };

/** codex → alice (created), alice passes it to audit, audit claims and completes it: the result returns to alice. */
async function roundTrip(ws: TestWorkspace): Promise<{ work: Handoff; passed: Handoff; returned: Handoff }> {
  const { work, passed: p } = await ws.passedToAudit();
  assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: p.handoff_id, agent: 'audit' })).ok, true);
  const done = await ws.dispatch({ action: 'completeHandoff', handoffId: p.handoff_id, agent: 'audit', result: report });
  assert.equal(done.ok, true, JSON.stringify(done));
  return {
    work: ws.stored(work.handoff_id),
    passed: ws.stored(p.handoff_id),
    returned: ws.stored((done.data!.returned as Handoff).handoff_id),
  };
}

describe('chains in the tracker (Mermaid)', () => {
  after(removeTempDirs);

  it('a pass and its return are drawn as one flowchart: nodes = handoffs (owner: status), edges = pass / return', async () => {
    const ws = new TestWorkspace();
    const { work, passed, returned } = await roundTrip(ws);
    const tracker = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    const found = findSection(tracker, HANDOFFS_HEADING);
    assert.ok(found, 'the tracker has its section');
    const section = tracker.slice(found.start, found.end);
    const n = (h: Handoff) => h.handoff_id.replace(/-/g, '_');
    const block = [
      '### Chains',
      '',
      '```mermaid',
      'flowchart LR',
      `  ${n(work)}["${work.handoff_id}<br/>alice: ${work.status.replace(/_/g, ' ')}"]`,
      `  ${n(passed)}["${passed.handoff_id}<br/>audit: ready for review"]`,
      `  ${n(returned)}["${returned.handoff_id}<br/>alice: queued"]`,
      `  ${n(work)} -->|pass| ${n(passed)}`,
      `  ${n(passed)} -->|return| ${n(returned)}`,
      '```',
      '',
      '',
    ].join('\n');
    assert.ok(section.endsWith(`\n\n${block}`), section);
    // The diagram belongs to the section: the section still ends at the file's end, the list is before it.
    assert.equal(section.indexOf('- [ ] '), section.indexOf('\n\n') + 2);
  });

  it('a new process that reuses the written blocks keeps the diagrams right (same text as a full render)', async () => {
    const ws = new TestWorkspace();
    const { returned } = await roundTrip(ws);
    const before = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    assert.match(before, /```mermaid/);
    const r = await ws.secondDispatcher().dispatch({ action: 'claimHandoff', handoffId: returned.handoff_id, agent: 'alice' });
    assert.equal(r.ok, true, JSON.stringify(r));
    const after = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    assert.equal(after, updateTrackerText(before, ws.storedHandoffs()));
    assert.match(after, /alice: in progress/, 'the claimed handoff is drawn in progress, not as the adopted section said');
  });

  it('a section is adopted only when its diagrams are the ones these handoffs draw', async () => {
    const ws = new TestWorkspace();
    await roundTrip(ws);
    const handoffs = ws.storedHandoffs();
    const section = renderHandoffsSection(handoffs);
    const copy = () => JSON.parse(JSON.stringify(handoffs)) as Handoff[];
    assert.equal(adoptRenderedSection(section, copy(), '\n'), true);
    assert.equal(adoptRenderedSection(section.replace('|pass|', '|return|'), copy(), '\n'), false);
    const noDiagrams = section.slice(0, section.indexOf('### Chains'));
    assert.equal(adoptRenderedSection(noDiagrams, copy(), '\n'), false);
  });

  it('a chain of one link (a pass not yet returned) and unlinked handoffs get no diagram', async () => {
    const ws = new TestWorkspace();
    const made = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['alice'], summary: 'Work' },
    });
    const work = made.data!.handoff as Handoff;
    const r = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'x', summary: 'y', handoffId: work.handoff_id });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.doesNotMatch(fs.readFileSync(ws.layout.trackerFile, 'utf8'), /mermaid|### Chains/);
    assert.deepEqual(renderChainDiagrams(ws.storedHandoffs()), []);
  });

  it('two chains give two blocks, in the order of their first handoff', () => {
    const a = makeHandoff({ handoff_id: 'HO-20260221-001', uid: '01JCHA1N000000000000000001' });
    const b = makeHandoff({ handoff_id: 'HO-20260221-002', uid: '01JCHA1N000000000000000002', parent_uid: a.uid });
    const c = makeHandoff({ handoff_id: 'HO-20260221-003', uid: '01JCHA1N000000000000000003', parent_uid: b.uid });
    const x = makeHandoff({ handoff_id: 'HO-20260221-004', uid: '01JCHA1N000000000000000004' });
    const y = makeHandoff({
      handoff_id: 'HO-20260221-005',
      uid: '01JCHA1N000000000000000005',
      parent_uid: x.uid,
      to_agents: [],
      status: 'blocked',
    });
    const z = makeHandoff({ handoff_id: 'HO-20260221-006', uid: '01JCHA1N000000000000000006', parent_uid: x.uid });
    const lines = renderChainDiagrams([z, x, y, c, b, a]);
    assert.equal(lines.filter((l) => l === '```mermaid').length, 2);
    assert.ok(lines.indexOf('  HO_20260221_004 -->|pass| HO_20260221_006') < lines.indexOf('  HO_20260221_001 -->|pass| HO_20260221_002'));
    assert.ok(lines.includes('  HO_20260221_005["HO-20260221-005<br/>unassigned: blocked"]'));
  });

  it('the chain index: root, members and link kinds; a parent loop in a corrupted store ends the walk', () => {
    const a = makeHandoff({ handoff_id: 'HO-20260221-001', uid: '01JCHA1N000000000000000001', parent_uid: '01JCHA1N000000000000000003' });
    const b = makeHandoff({ handoff_id: 'HO-20260221-002', uid: '01JCHA1N000000000000000002', parent_uid: a.uid });
    const c = makeHandoff({ handoff_id: 'HO-20260221-003', uid: '01JCHA1N000000000000000003', parent_uid: b.uid });
    const all = [a, b, c];
    const root = chainRoot(b, chainIndex(all));
    assert.ok(all.includes(root));
    const chain = chainOf(b, all);
    assert.equal(chain.members.length, 3);
    assert.equal(chain.links.length, 2);
    assert.deepEqual(renderChainDiagrams(all), [], 'a loop has no first handoff, so nothing is drawn');
  });
});
