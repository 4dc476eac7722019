// reviewFiles (docs/contract.md §6, "Per-file review"): the reviewer of returned work accepts or rejects each file its
// report lists. Decisions add up; all accepted approves the work, any rejected returns it for revision. Bad input, a
// second decision the other way and a caller who is not the reviewer are refused and change nothing.
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

const COMMIT = 'a'.repeat(40);
const FILES = [
  { path: 'src/login.ts', change: 'modified', summary: 'retry once' },
  { path: 'test/login.test.ts', change: 'added' },
  { path: 'docs/old.md', change: 'deleted' },
];
const REPORT = {
  status: 'complete',
  decision: 'PROCEED',
  context_summary: 'fixed the race',
  findings: {},
  issues: [],
  artifacts: { file_modifications: FILES },
  commit: COMMIT,
};

function workspace(policy: Record<string, unknown> = {}): TestWorkspace {
  return new TestWorkspace({
    config: { agentCapabilities: { codex: ['x'], alice: ['x'], audit: ['y'] }, humans: ['dana'], maxAttempts: 1, ...policy },
  });
}

/** alice passed work to audit, which returned it with three files: the pass waits for alice's review. */
async function returned(ws: TestWorkspace, report: Record<string, unknown> = REPORT): Promise<Handoff> {
  const { passed } = await ws.passedToAudit();
  assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: passed.handoff_id, agent: 'audit' })).ok, true);
  const r = await ws.dispatch({ action: 'returnHandoff', handoffId: passed.handoff_id, agent: 'audit', result: report });
  assert.equal(r.ok, true, JSON.stringify(r));
  const h = ws.storedHandoffs().find((x) => x.handoff_id === passed.handoff_id)!;
  assert.equal(h.status, 'ready_for_review');
  return h;
}

const review = (ws: TestWorkspace, h: Handoff, agent: string, accept: string[], reject: { path: string; reason: string }[] = []) =>
  ws.dispatch({ action: 'reviewFiles', handoffId: h.handoff_id, agent, accept, reject });

describe('reviewFiles (docs/contract.md §6, "Per-file review")', () => {
  after(removeTempDirs);

  it('decisions add up per file; the last one, a rejection, returns the work to its receiver naming the file and why', async () => {
    const ws = workspace({ maxAttempts: 3 });
    const h = await returned(ws);
    const first = await review(ws, h, 'alice', ['src/login.ts', 'docs/old.md']);
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.equal(first.data!.outcome, 'pending');
    assert.deepEqual(first.data!.decided, ['src/login.ts', 'docs/old.md']);
    const mid = first.data!.handoff as Handoff;
    assert.equal(mid.status, 'ready_for_review');
    const files = mid.result!.artifacts!.file_modifications;
    assert.deepEqual([files[0].review?.decision, files[0].review?.by, files[1].review], ['accepted', 'alice', undefined]);
    assert.equal((JSON.parse(ws.storeBytes().toString('utf8')) as { version: number }).version, 3);

    const second = await review(ws, mid, 'alice', [], [{ path: 'test/login.test.ts', reason: 'asserts nothing' }]);
    assert.equal(second.ok, true, JSON.stringify(second));
    assert.equal(second.data!.outcome, 'rejected');
    const back = second.data!.handoff as Handoff;
    assert.equal(back.status, 'in_progress');
    assert.equal(back.prior_attempts, 1);
    assert.match(back.state_history.at(-1)!.reason!, /test\/login\.test\.ts \(asserts nothing\)/);
    const decided = back.result!.artifacts!.file_modifications.map((f) => [f.path, f.review?.decision, f.review?.reason]);
    assert.deepEqual(decided, [
      ['src/login.ts', 'accepted', undefined],
      ['test/login.test.ts', 'rejected', 'asserts nothing'],
      ['docs/old.md', 'accepted', undefined],
    ]);
  });

  it('every file accepted approves the work; a human may review too; the first review makes the store version 3', async () => {
    const ws = workspace();
    // A report without a commit or file summaries: the review is the first version-3 field.
    const h = await returned(ws, {
      ...REPORT,
      commit: undefined,
      artifacts: { file_modifications: FILES.map(({ path, change }) => ({ path, change })) },
    });
    assert.equal((JSON.parse(ws.storeBytes().toString('utf8')) as { version: number }).version, 1);
    const r = await review(
      ws,
      h,
      'dana',
      FILES.map((f) => f.path),
    );
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.match(String(r.data!.notice), /store version 3: it records a per-file review/);
    assert.equal(r.data!.outcome, 'accepted');
    assert.equal((r.data!.handoff as Handoff).status, 'approved');
    assert.ok((r.data!.handoff as Handoff).result!.artifacts!.file_modifications.every((f) => f.review?.by === 'dana'));
  });

  it('a rejection past maxAttempts escalates the work', async () => {
    const ws = workspace(); // maxAttempts 1
    const h = await returned(ws);
    const rest = ['test/login.test.ts', 'docs/old.md'];
    const once = await review(ws, h, 'alice', rest, [{ path: 'src/login.ts', reason: 'no' }]);
    assert.equal(once.ok, true, JSON.stringify(once));
    assert.equal((once.data!.handoff as Handoff).status, 'in_progress', 'the first revision goes back to audit');
    const again = await ws.dispatch({ action: 'returnHandoff', handoffId: h.handoff_id, agent: 'audit', result: REPORT });
    assert.equal(again.ok, true, JSON.stringify(again));
    const twice = await review(ws, h, 'alice', rest, [{ path: 'src/login.ts', reason: 'still no' }]);
    assert.equal(twice.ok, true, JSON.stringify(twice));
    assert.equal((twice.data!.handoff as Handoff).status, 'escalated');
  });

  it('approve accepts the files not yet decided; approve is refused while a file is rejected', async () => {
    const ws = workspace();
    const h = await returned(ws);
    const ok = await ws.dispatch({ action: 'transitionHandoff', handoffId: h.handoff_id, agent: 'alice', to: 'approved' });
    assert.equal(ok.ok, true, JSON.stringify(ok));
    const files = (ok.data!.handoff as Handoff).result!.artifacts!.file_modifications;
    assert.deepEqual(
      files.map((f) => f.review?.decision),
      ['accepted', 'accepted', 'accepted'],
    );

    const ws2 = workspace();
    const h2 = await returned(ws2);
    assert.equal((await review(ws2, h2, 'alice', [], [{ path: 'src/login.ts', reason: 'wrong' }])).ok, true);
    const bytes = ws2.storeBytes();
    const refused = await ws2.dispatch({ action: 'transitionHandoff', handoffId: h2.handoff_id, agent: 'alice', to: 'approved' });
    assert.equal(refused.ok, false);
    assert.equal(refused.reason, 'invalid_request');
    assert.match(refused.message!, /src\/login\.ts was rejected/);
    assert.deepEqual(ws2.storeBytes(), bytes);
  });

  it('refuses, changing nothing: an unknown file, a file twice, no file, a second decision the other way, the wrong caller, the return', async () => {
    const ws = workspace();
    const h = await returned(ws);
    assert.equal((await review(ws, h, 'alice', ['src/login.ts'])).ok, true);
    const bytes = ws.storeBytes();
    const cases: [string, Awaited<ReturnType<typeof review>>, string, RegExp][] = [
      ['unknown', await review(ws, h, 'alice', ['src/other.ts']), 'invalid_request', /src\/other\.ts is not among the files/],
      ['twice', await review(ws, h, 'alice', ['docs/old.md'], [{ path: 'docs/old.md', reason: 'x' }]), 'invalid_request', /named twice/],
      ['none', await review(ws, h, 'alice', []), 'invalid_request', /at least one file/],
      [
        'conflicting',
        await review(ws, h, 'alice', [], [{ path: 'src/login.ts', reason: 'changed my mind' }]),
        'invalid_request',
        /already accepted by alice/,
      ],
      ['receiver', await review(ws, h, 'audit', ['docs/old.md']), 'not_assigned', /only its originator \(alice\)/],
      ['bystander', await review(ws, h, 'codex', ['docs/old.md']), 'not_assigned', /may not review the files of/],
    ];
    for (const [name, r, reason, message] of cases) {
      assert.equal(r.ok, false, `${name}: ${JSON.stringify(r)}`);
      assert.equal(r.reason, reason, name);
      assert.match(r.message!, message, name);
    }
    // The handoff that carries the work back holds a copy of the report: its files are reviewed on the pass.
    const back = ws.storedHandoffs().find((x) => x.reason === 'return' && x.parent_uid === h.uid)!;
    const onReturn = await review(ws, back, 'alice', ['docs/old.md']);
    assert.equal(onReturn.reason, 'invalid_request');
    assert.match(onReturn.message!, new RegExp(`reviewed on the pass itself \\(reviewFiles with handoffId ${h.handoff_id}\\)`));
    assert.deepEqual(ws.storeBytes(), bytes, 'nothing changed');
    // The same decision again is no change at all.
    const again = await review(ws, h, 'alice', ['src/login.ts']);
    assert.equal(again.ok, true);
    assert.deepEqual(again.data!.decided, []);
    assert.deepEqual(ws.storeBytes(), bytes);
  });

  it('refuses a review once the work left review, and work whose report lists no file', async () => {
    const ws = workspace();
    const h = await returned(ws);
    assert.equal(
      (
        await review(
          ws,
          h,
          'alice',
          FILES.map((f) => f.path),
        )
      ).ok,
      true,
    );
    const late = await review(ws, h, 'alice', ['src/login.ts']);
    assert.equal(late.reason, 'illegal_transition');
    assert.match(late.message!, /approved/);

    const plain = await ws.passedToAudit();
    await ws.dispatch({ action: 'claimHandoff', handoffId: plain.passed.handoff_id, agent: 'audit' });
    const { artifacts: _a, commit: _c, ...bare } = REPORT;
    await ws.dispatch({ action: 'returnHandoff', handoffId: plain.passed.handoff_id, agent: 'audit', result: bare });
    const none = await review(ws, plain.passed, 'alice', ['src/login.ts']);
    assert.equal(none.reason, 'invalid_request');
    assert.match(none.message!, /lists no file modifications/);
  });
});
