// The request side (docs/contract.md §6): createHandoff and passOver take `request: { feature?, spec_path?, constraints?,
// instructions?, expected_output? }` and `phase`, stored on the record and shown in AgentTracker.md; the previous
// hop's context_summary reaches the next handoff as previous_findings. Through the dispatcher, on disk.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { handoffDetails } from '../../../../src/cli/handoffFormat';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { completionReport } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

/** A research request, as AgentSync takes it (task_id, phase and files are the handoff's own fields). */
const RESEARCH = {
  feature: 'jwt-authentication',
  spec_path: 'specs/auth/requirements.md',
  constraints: ['no breaking changes', 'follow existing patterns'],
  instructions: 'Find existing auth code and patterns for the new JWT feature',
  expected_output: 'structured_findings',
};

describe('the request side of the handoff protocol (docs/contract.md §6)', () => {
  after(removeTempDirs);

  /** alice passes the RESEARCH request to scout. */
  const passResearch = (ws: TestWorkspace, extra: Record<string, unknown> = {}) =>
    ws.dispatch({ action: 'passOver', agent: 'alice', to: 'scout', reason: 'research', summary: 'Research', request: RESEARCH, ...extra });

  it('passOver stores the request, infers the phase from expected_output, and the tracker shows it', async () => {
    const ws = new TestWorkspace();
    const r = await passResearch(ws, { summary: 'Research JWT auth', files: ['src/lib/'] });
    assert.equal(r.ok, true, JSON.stringify(r));
    const h = ws.stored((r.data!.handoff as Handoff).handoff_id);
    assert.deepEqual([h.request, h.phase], [RESEARCH, 'research']);
    const tracker = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    const line = tracker.split('\n').find((l) => l.startsWith('  - request: '));
    assert.equal(
      line,
      '  - request: phase: research | feature: jwt-authentication | spec: `specs/auth/requirements.md` | expects: structured\\_findings' +
        ' | constraints: no breaking changes; follow existing patterns | instructions: Find existing auth code and patterns for the new JWT feature',
    );
  });

  it('`agentsync show` prints the phase and each part of the request', async () => {
    const ws = new TestWorkspace();
    const r = await passResearch(ws);
    const text = handoffDetails(r.data!.handoff as Handoff);
    for (const line of [
      'pass:     returns to alice    chain: alice → scout',
      'phase:    research',
      'feature:  jwt-authentication',
      'spec:     specs/auth/requirements.md',
      'expects:  structured_findings',
      'must:     no breaking changes',
      'must:     follow existing patterns',
      'do:       Find existing auth code and patterns for the new JWT feature',
    ]) {
      assert.ok(text.split('\n').includes(line), `${line}\n---\n${text}`);
    }
  });

  it('createHandoff stores it too; a phase given explicitly is kept', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch({
      action: 'createHandoff',
      handoff: {
        from_agent: 'alice',
        owner_mode: 'single',
        to_agents: ['bob'],
        summary: 'Write it',
        phase: 'write',
        request: { feature: 'jwt' },
      },
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    const h = ws.stored((r.data!.handoff as Handoff).handoff_id);
    assert.deepEqual([h.request, h.phase], [{ feature: 'jwt' }, 'write']);
  });

  const refused: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'a phase that does not match expected_output',
      { phase: 'write', request: { expected_output: 'validation_result' } },
      'request.expected_output',
      /belongs to the validate phase, but phase is "write"/,
    ],
    ['a spec_path outside the workspace', { request: { spec_path: '../secrets.md' } }, 'request.spec_path', /could escape the workspace/],
    ['an unknown request field', { request: { feature: 'x', deadline: 'friday' } }, 'request.deadline', /unknown field\(s\) "deadline"/],
    [
      'an expected_output outside the four',
      { request: { expected_output: 'essay' } },
      'request.expected_output',
      /request\.expected_output: /,
    ],
    [
      'more than 50 constraints',
      { request: { constraints: Array.from({ length: 51 }, (_, i) => `c${i}`) } },
      'request.constraints',
      /constraints/,
    ],
  ];
  for (const [what, extra, field, message] of refused) {
    it(`passOver with ${what} is refused naming ${field}, and nothing is stored`, async () => {
      const ws = new TestWorkspace();
      const r = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'scout', reason: 'r', summary: 's', ...extra });
      assert.deepEqual([r.ok, r.reason, r.field], [false, 'invalid_request', field], JSON.stringify(r));
      assert.match(String(r.message), message);
      assert.equal(fs.existsSync(ws.layout.handoffsFile), false, 'nothing was written');
    });
  }

  it('the previous hop’s context_summary reaches the next handoff in the chain as previous_findings', async () => {
    const ws = new TestWorkspace();
    const research = (await passResearch(ws)).data!.handoff as Handoff;
    await ws.dispatch({ action: 'claimHandoff', handoffId: research.handoff_id, agent: 'scout' });
    const summary = 'Existing auth at src/lib/auth.ts (sessions). Extend auth.ts with JWT, create auth router.';
    const findings = { recommendations: ['Extend auth.ts'] };
    const done = await ws.dispatch({
      action: 'returnHandoff',
      handoffId: research.handoff_id,
      agent: 'scout',
      result: completionReport('PROCEED', { context_summary: summary, findings }),
    });
    const back = done.data!.returned as Handoff;
    assert.equal(back.previous_findings, summary);
    const write = await ws.dispatch({
      action: 'passOver',
      agent: 'alice',
      to: 'writer',
      handoffId: back.handoff_id,
      reason: 'implement',
      summary: 'Implement JWT auth',
      request: { feature: 'jwt-authentication', constraints: ['TDD'], expected_output: 'files_changed' },
    });
    assert.equal(write.ok, true, JSON.stringify(write));
    const next = ws.stored((write.data!.handoff as Handoff).handoff_id);
    assert.deepEqual([next.previous_findings, next.phase, next.chain], [summary, 'write', ['alice', 'scout', 'alice', 'writer']]);
  });
});
