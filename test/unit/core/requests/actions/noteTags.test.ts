// Tags in a handoff note (docs/contract.md §6): `[pass_over: x]` … `Reason: …` and `[return_to: y]` in a note made
// with createHandoff (the editor's Add Handoff Note, endSession's handoff) act like the same tags in a passOver /
// returnHandoff message. An accepted tag makes the note that action's record; a refused one leaves the note stored as
// written, and the answer's `tag` says what was refused and why.
import { strict as assert } from 'node:assert';
import { tagLine } from '../../../../../src/cli/handoffFormat';
import type { TagOutcome } from '../../../../../src/core/requests/actions/noteTags';
import type { Handoff } from '../../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../../helpers/testWorkspace';

function note(from: string, to: string, summary: string, notes: string, extra: Record<string, unknown> = {}) {
  return { action: 'createHandoff', handoff: { from_agent: from, owner_mode: 'single', to_agents: [to], summary, notes, ...extra } };
}

describe('tags in a handoff note', () => {
  after(removeTempDirs);

  it('[pass_over: audit] with a Reason line makes the note a pass over: return_to, chain, policy, reason', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch(
      note('alice', 'audit', 'Review the auth module', '[pass_over: audit]\nReason: code_review\nFocus on token refresh.', {
        task_id: 'AS-7',
        files: ['src/auth/login.ts'],
      }),
    );
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(r.data!.tag, { tag: 'pass_over', agent: 'audit', action: 'passOver', ok: true });
    const h = ws.stored((r.data!.handoff as Handoff).handoff_id);
    assert.deepEqual(
      [h.to_agents, h.return_to, h.chain, h.reason, h.summary, h.task_id, h.files, h.policy?.timeout_ms],
      [['audit'], 'alice', ['alice', 'audit'], 'code_review', 'Review the auth module', 'AS-7', ['src/auth/login.ts'], 1_800_000],
    );
    assert.equal(ws.storedHandoffs().length, 1, 'the note is the pass, not a second record');
  });

  it('a refused pass (alice → alice, E003) leaves the note stored as written, and the answer says why', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch(note('alice', 'alice', 'Remind me', '[pass_over: alice]\nReason: later'));
    assert.equal(r.ok, true, JSON.stringify(r));
    const tag = r.data!.tag as Record<string, unknown>;
    assert.deepEqual([tag.ok, tag.reason, tag.code, tag.action], [false, 'CYCLE_DETECTED', 'E003', 'passOver']);
    assert.match(String(tag.message), /alice cannot pass work to itself/);
    const h = ws.stored((r.data!.handoff as Handoff).handoff_id);
    assert.deepEqual([h.status, h.to_agents, h.return_to, h.notes], ['queued', ['alice'], undefined, '[pass_over: alice]\nReason: later']);
    assert.match(String(h.state_history[0].reason), /\[pass_over: alice\] refused: CYCLE_DETECTED \(E003\)/);
    // `agentsync create` prints it under the created line.
    assert.equal(
      tagLine(tag as unknown as TagOutcome),
      '\n[pass_over: alice] refused: CYCLE_DETECTED (E003): alice cannot pass work to itself: alice → alice.',
    );
  });

  it('a tag that names someone other than the note’s owner, or lacks a Reason, is refused like any pass', async () => {
    const ws = new TestWorkspace();
    const other = await ws.dispatch(note('alice', 'codex', 'Review', '[pass_over: audit]\nReason: code_review'));
    const t1 = other.data!.tag as Record<string, unknown>;
    assert.deepEqual([t1.ok, t1.reason], [false, 'invalid_request']);
    assert.match(String(t1.message), /hands it to audit, but handoff\.to_agents is codex/);
    const noReason = await ws.dispatch(note('alice', 'audit', 'Review', '[pass_over: audit]'));
    const t2 = noReason.data!.tag as Record<string, unknown>;
    assert.deepEqual([t2.ok, t2.reason], [false, 'invalid_request']);
    assert.match(String(t2.message), /reason is required/);
    assert.equal(ws.storedHandoffs().length, 2, 'both notes are stored');
    assert.ok(ws.storedHandoffs().every((h) => !h.return_to));
  });

  it('a disabled pair refuses the tag with E004, as it refuses passOver', async () => {
    const ws = new TestWorkspace({ config: { passOver: { pairs: { 'alice->audit': { enabled: false } } } } });
    const r = await ws.dispatch(note('alice', 'audit', 'Review', '[pass_over: audit]\nReason: code_review'));
    assert.deepEqual([(r.data!.tag as { code: string }).code, ws.storedHandoffs().length], ['E004', 1]);
  });

  it('[return_to: alice] in a note from the agent holding alice’s pass is the return, with the note as its text', async () => {
    const ws = new TestWorkspace();
    const p = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'code_review', summary: 'Review auth' });
    const passed = (p.data!.handoff as Handoff).handoff_id;
    await ws.dispatch({ action: 'claimHandoff', handoffId: passed, agent: 'audit' });
    const r = await ws.dispatch(note('audit', 'alice', 'Review done', '[return_to: alice]\nTwo issues fixed in login.ts.'));
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(r.data!.tag, { tag: 'return_to', agent: 'alice', action: 'returnHandoff', ok: true });
    assert.equal(ws.stored(passed).status, 'ready_for_review');
    const back = ws.stored((r.data!.handoff as Handoff).handoff_id);
    assert.deepEqual([back.to_agents, back.reason, back.parent_uid], [['alice'], 'return', ws.stored(passed).uid]);
    assert.equal(back.notes, 'Review done\n\nTwo issues fixed in login.ts.');
    assert.equal((r.data!.completed as Handoff).handoff_id, passed);
    assert.equal(ws.storedHandoffs().length, 2);
  });

  it('[return_to: alice] with nothing of alice’s held is refused with E020, and the note is kept', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch(note('audit', 'alice', 'Done', '[return_to: alice]'));
    const tag = r.data!.tag as Record<string, unknown>;
    assert.deepEqual([r.ok, tag.ok, tag.reason, tag.code], [true, false, 'RETURN_CONTEXT_LOST', 'E020']);
    assert.equal(ws.storedHandoffs().length, 1);
  });

  it('a note without a tag is an ordinary handoff and its answer has no tag', async () => {
    const ws = new TestWorkspace();
    const r = await ws.dispatch(note('alice', 'audit', 'Review', 'Reason: none here'));
    assert.equal(r.ok, true);
    assert.equal(r.data!.tag, undefined);
  });
});
