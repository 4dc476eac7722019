// notify_on_return as the editor sees it (docs/agentsync-documentation.md, "Pass-over policies"): which returned
// work is announced to whom, once, by the notify marker its return stored. Real passes and returns through the dispatcher.
import { strict as assert } from 'node:assert';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { ReturnNotices } from '../../../../src/core/domain/returnNotices';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const clean = { status: 'complete', decision: 'PROCEED', context_summary: 'done', findings: {}, issues: [] };

/** alice passes work to audit (with an inline policy override), audit claims it and returns it with `result`. */
async function passAndReturn(ws: TestWorkspace, override: object | undefined, result: object): Promise<Handoff> {
  const r = await ws.dispatch({
    action: 'passOver',
    agent: 'alice',
    to: 'audit',
    reason: 'r',
    summary: 's',
    ...(override ? { override } : {}),
  });
  assert.equal(r.ok, true, JSON.stringify(r));
  const id = (r.data!.handoff as Handoff).handoff_id;
  assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: id, agent: 'audit' })).ok, true);
  const done = await ws.dispatch({ action: 'returnHandoff', handoffId: id, agent: 'audit', result });
  assert.equal(done.ok, true, JSON.stringify(done));
  return done.data!.returned as Handoff;
}

describe('return notices (notify_on_return)', () => {
  after(removeTempDirs);

  it('a return to me is handed out once; returns there before the first look and returns to others are not', async () => {
    const ws = new TestWorkspace();
    const before = await passAndReturn(ws, undefined, clean);
    const notices = new ReturnNotices();
    assert.deepEqual(notices.take(ws.storedHandoffs(), 'alice'), [], 'the first look only records');
    const back = await passAndReturn(ws, undefined, clean);
    assert.notEqual(back.uid, before.uid);
    assert.deepEqual(
      notices.take(ws.storedHandoffs(), 'alice').map((h) => h.handoff_id),
      [back.handoff_id],
    );
    assert.deepEqual(notices.take(ws.storedHandoffs(), 'alice'), [], 'once');
    await passAndReturn(ws, undefined, clean);
    assert.deepEqual(notices.take(ws.storedHandoffs(), 'bob'), [], 'not for bob');
    assert.deepEqual(notices.take(ws.storedHandoffs(), 'alice'), [], 'and not replayed for alice later');
  });

  for (const [mode, result, expected] of [
    [false, clean, 0],
    ['never', clean, 0],
    ['always', clean, 1],
    ['only_issues', clean, 0],
    ['only_issues', { ...clean, issues: ['flaky test'] }, 1],
    ['only_issues', { ...clean, status: 'partial' }, 1],
  ] as const) {
    it(`notify_on_return ${JSON.stringify(mode)} with ${JSON.stringify(result.issues)} / ${result.status}: ${expected ? 'announced' : 'silent'}`, async () => {
      const ws = new TestWorkspace();
      const notices = new ReturnNotices();
      notices.take([], 'alice');
      const back = await passAndReturn(ws, { notify_on_return: mode }, result);
      assert.equal(back.policy?.notify_on_return, mode, 'the policy is stored on the returned work');
      assert.equal(back.notify?.agent, expected ? 'alice' : undefined, 'the return action marks it (or not)');
      assert.equal(notices.take(ws.storedHandoffs(), 'alice').length, expected);
    });
  }
});
