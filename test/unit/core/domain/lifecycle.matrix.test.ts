// docs/contract.md §4: every legal move of the table and every illegal (from, to) pair of the 7×7 matrix, through the
// RequestDispatcher on a real store in a temp folder.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Handoff, HandoffStatus } from '../../../../src/core/domain/handoffSchema';
import { completionReport, handoffIn } from '../../helpers/handoffFixtures';
import { ALL_STATUSES, authorityOf, illegalPairs, LEGAL, legalPairs } from '../../helpers/lifecycleTable';
import { removeTempDirs, rid, TestWorkspace } from '../../helpers/testWorkspace';

const ID = 'HO-20260221-001';
const ACTOR = { owner: 'claude', originator: 'codex', involved: 'codex' } as const;

function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function sorted(a: readonly string[]): string[] {
  return [...a].sort();
}

describe('lifecycle: the transition matrix (docs/contract.md §4)', () => {
  after(removeTempDirs);

  describe('every legal transition, through transitionHandoff', () => {
    for (const [from, to] of legalPairs()) {
      it(`${from} → ${to} (by its ${authorityOf(from, to)})`, async () => {
        const ws = new TestWorkspace({ handoffs: [handoffIn(from)] });
        const before = ws.stored(ID);
        const agent = ACTOR[authorityOf(from, to)];
        const reason = `moving ${from} to ${to}`;
        const requestId = rid('legal');
        const now = ws.clock.advance(3_600_000);

        const res = await ws.dispatch({ action: 'transitionHandoff', request_id: requestId, handoffId: ID, agent, to, reason });

        assert.equal(res.ok, true, JSON.stringify(res));
        assert.equal(res.action, 'transitionHandoff');
        assert.equal(res.request_id, requestId);
        const after = ws.stored(ID);
        assert.equal(after.status, to);
        assert.deepEqual(plain((res.data as { handoff: Handoff }).handoff), after, 'the response carries the stored record');
        // History: the old entries untouched, exactly one appended.
        assert.equal(after.state_history.length, before.state_history.length + 1);
        assert.deepEqual(after.state_history.slice(0, -1), before.state_history);
        const last = after.state_history[after.state_history.length - 1];
        assert.deepEqual(
          { status: last.status, agent: last.agent, timestamp: last.timestamp, reason: last.reason },
          { status: to, agent, timestamp: now, reason },
        );
        assert.equal(after.rev, before.rev! + 1);
        assert.equal(after.updated_at, now);
        assert.equal(after.created_at, before.created_at);
        // One audit line naming the move.
        const audit = ws.auditFor(requestId);
        assert.equal(audit.length, 1, JSON.stringify(audit));
        assert.deepEqual(
          {
            action: audit[0].action,
            agent: audit[0].agent,
            handoff_id: audit[0].handoff_id,
            uid: audit[0].uid,
            from_status: audit[0].from_status,
            to_status: audit[0].to_status,
            reason: audit[0].reason,
            surface: audit[0].surface,
            refused: audit[0].refused,
          },
          {
            action: 'transitionHandoff',
            agent,
            handoff_id: ID,
            uid: before.uid,
            from_status: from,
            to_status: to,
            reason,
            surface: 'test',
            refused: undefined,
          },
        );
        // Derived files re-rendered from the new state.
        assert.match(ws.readText(ws.layout.trackerFile) ?? '', new RegExp(`${ID} \\| .* \\| status: ${to}\\b`));
        assert.deepEqual((ws.stateJson().handoffCounts as Record<string, number>)[to], 1);
      });
    }
  });

  describe('the side effects each legal move carries', () => {
    async function move(from: HandoffStatus, to: HandoffStatus, agent: string, extra: Partial<Handoff> = {}) {
      const ws = new TestWorkspace({ handoffs: [handoffIn(from, extra)] });
      const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent, to });
      assert.equal(res.ok, true, JSON.stringify(res));
      return { ws, h: ws.stored(ID) };
    }

    it('claim (queued → in_progress) records the holder, claim time and a lease', async () => {
      const { ws, h } = await move('queued', 'in_progress', 'claude');
      assert.equal(h.claimed_by, 'claude');
      assert.equal(h.claimed_at, ws.clock.iso());
      assert.equal(h.lease_expires_at, new Date(ws.clock.now().getTime() + 30 * 60_000).toISOString());
      assert.equal(h.state_history[h.state_history.length - 1].reason, 'claimed');
    });

    it('release (in_progress → queued) clears the holder and lease', async () => {
      const { h } = await move('in_progress', 'queued', 'claude', { lease_expires_at: '2026-02-21T22:00:00.000Z' });
      assert.equal(h.claimed_by, null);
      assert.equal(h.claimed_at, null);
      assert.equal(h.lease_expires_at, null);
      assert.equal(h.state_history[h.state_history.length - 1].reason, 'release', 'with no reason given, the verb is recorded');
    });

    it('unblock to in_progress gives the handoff back to its holder', async () => {
      const { h } = await move('blocked', 'in_progress', 'codex');
      assert.equal(h.claimed_by, 'claude');
    });

    it('unblock to in_progress with no holder and an actor who is not an owner is refused, naming the legal targets', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('blocked', { claimed_by: null, claimed_at: null })] });
      const bytes = ws.storeBytes();
      const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'codex', to: 'in_progress' });
      assert.equal(res.ok, false);
      assert.equal(res.reason, 'illegal_transition');
      assert.deepEqual(sorted(res.legal as string[]), ['escalated', 'queued']);
      assert.deepEqual(ws.storeBytes(), bytes);
    });

    it('unblock to in_progress with no holder, by an owner, makes that owner the holder', async () => {
      const { h } = await move('blocked', 'in_progress', 'claude', { claimed_by: null, claimed_at: null });
      assert.equal(h.claimed_by, 'claude');
    });

    it('unblock to queued clears the holder', async () => {
      const { h } = await move('blocked', 'queued', 'claude');
      assert.equal(h.claimed_by, null);
      assert.equal(h.lease_expires_at, null);
    });

    it('return for revision (ready_for_review → in_progress) counts prior_attempts', async () => {
      const { h } = await move('ready_for_review', 'in_progress', 'codex');
      assert.equal(h.prior_attempts, 1);
    });

    it('merge and escalate mark the tracker box and close the handoff in state.json', async () => {
      const { ws } = await move('approved', 'merged', 'codex');
      assert.match(ws.readText(ws.layout.trackerFile)!, new RegExp(`^- \\[x\\] ${ID} `, 'm'));
      const state = ws.stateJson();
      assert.equal(state.openHandoffCount, 0);
      assert.deepEqual(state.activeHandoffIds, []);
    });
  });

  describe('every illegal (from, to) pair is refused and changes nothing', () => {
    for (const [from, to] of illegalPairs()) {
      if (from === 'in_progress' && to === 'in_progress') continue; // a re-claim, tested below
      it(`${from} → ${to}`, async () => {
        const ws = new TestWorkspace({ handoffs: [handoffIn(from)] });
        const bytes = ws.storeBytes();
        const requestId = rid('illegal');
        const res = await ws.dispatch({ action: 'transitionHandoff', request_id: requestId, handoffId: ID, agent: 'human', to });
        assert.equal(res.ok, false, JSON.stringify(res));
        assert.equal(res.reason, 'illegal_transition');
        assert.equal(res.from, from);
        assert.equal(res.to, to);
        assert.deepEqual(sorted(res.legal as string[]), sorted(LEGAL[from]));
        assert.match(res.message!, new RegExp(`from ${from} to ${to}`));
        assert.deepEqual(ws.storeBytes(), bytes, 'handoffs.json is byte-identical');
        assert.equal(fs.existsSync(ws.layout.trackerFile), false, 'no derived file was rendered');
        const audit = ws.auditFor(requestId);
        assert.equal(audit.length, 1);
        assert.equal(audit[0].refused, true);
        assert.equal(audit[0].reason, 'illegal_transition');
        assert.equal(audit[0].from_status, from);
      });
    }

    it('in_progress → in_progress by another agent is a second claim: already_claimed, nothing changes', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress', { to_agents: ['claude', 'copilot'], owner_mode: 'shared' })] });
      const bytes = ws.storeBytes();
      const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'copilot', to: 'in_progress' });
      assert.equal(res.reason, 'already_claimed');
      assert.equal(res.claimedBy, 'claude');
      assert.deepEqual(ws.storeBytes(), bytes);
    });

    it('in_progress → in_progress by the holder is an idempotent re-claim: ok, nothing changes', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
      const bytes = ws.storeBytes();
      const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'claude', to: 'in_progress' });
      assert.equal(res.ok, true);
      assert.equal((res.data as { handoff: Handoff }).handoff.rev, 5);
      assert.deepEqual(ws.storeBytes(), bytes);
    });
  });

  describe('terminal states', () => {
    for (const terminal of ['merged', 'escalated'] as const) {
      it(`nothing leaves ${terminal}: every target is illegal, and the message points to a follow-up handoff`, async () => {
        const ws = new TestWorkspace({ handoffs: [handoffIn(terminal)] });
        const bytes = ws.storeBytes();
        for (const to of ALL_STATUSES) {
          const res = await ws.dispatch({ action: 'transitionHandoff', handoffId: ID, agent: 'human', to });
          assert.equal(res.reason, 'illegal_transition', `${terminal} → ${to}`);
          assert.deepEqual(res.legal, []);
          assert.match(res.message!, /terminal/);
          assert.match(res.message!, /parent_uid/);
        }
        const claim = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'claude' });
        assert.equal(claim.reason, 'not_claimable');
        assert.equal(claim.status, terminal);
        const complete = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'claude' });
        assert.equal(complete.reason, 'illegal_transition');
        assert.deepEqual(ws.storeBytes(), bytes);
      });
    }
  });

  describe('claimHandoff from every status', () => {
    for (const from of ALL_STATUSES) {
      if (from === 'queued' || from === 'in_progress') continue; // claim.test.ts
      // A withdrawn pass says so (docs/contract.md §6, "Withdraw"); every other status is not claimable.
      const expected = from === 'withdrawn' ? 'withdrawn' : 'not_claimable';
      it(`${from}: ${expected}${from === 'withdrawn' ? '' : ' with the status'}, nothing changes`, async () => {
        const ws = new TestWorkspace({ handoffs: [handoffIn(from)] });
        const bytes = ws.storeBytes();
        const res = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'claude' });
        assert.equal(res.ok, false);
        assert.equal(res.reason, expected);
        if (from !== 'withdrawn') assert.equal(res.status, from);
        assert.deepEqual(ws.storeBytes(), bytes);
      });
    }
  });

  describe('completeHandoff from every status', () => {
    it('in_progress → ready_for_review with the report stored and the lease cleared', async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress', { lease_expires_at: '2026-02-21T22:00:00.000Z' })] });
      const res = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'claude', result: completionReport() });
      assert.equal(res.ok, true, JSON.stringify(res));
      const h = ws.stored(ID);
      assert.equal(h.status, 'ready_for_review');
      assert.equal(h.result?.decision, 'PROCEED');
      assert.equal(h.result?.context_summary, 'Checked the refresh path; no regression.');
      assert.equal(h.lease_expires_at, null);
      assert.equal(h.rev, 6);
      assert.deepEqual((({ status, agent, reason }) => ({ status, agent, reason }))(h.state_history[h.state_history.length - 1]), {
        status: 'ready_for_review',
        agent: 'claude',
        reason: 'completed',
      });
    });

    for (const from of ALL_STATUSES) {
      if (from === 'in_progress' || from === 'withdrawn') continue; // a report of a withdrawn pass: withdrawPass.test.ts
      it(`${from}: illegal_transition to ready_for_review, nothing changes`, async () => {
        const ws = new TestWorkspace({ handoffs: [handoffIn(from)] });
        const bytes = ws.storeBytes();
        const res = await ws.dispatch({ action: 'completeHandoff', handoffId: ID, agent: 'claude', result: completionReport() });
        assert.equal(res.reason, 'illegal_transition');
        assert.equal(res.from, from);
        assert.equal(res.to, 'ready_for_review');
        assert.deepEqual(ws.storeBytes(), bytes);
      });
    }
  });

  describe('not_found', () => {
    for (const action of ['transitionHandoff', 'claimHandoff', 'completeHandoff'] as const) {
      it(`${action} on an unknown id answers not_found and changes nothing`, async () => {
        const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
        const bytes = ws.storeBytes();
        const res = await ws.dispatch({
          action,
          handoffId: 'HO-20990101-999',
          agent: 'claude',
          ...(action === 'transitionHandoff' ? { to: 'blocked' } : {}),
        });
        assert.equal(res.ok, false);
        assert.equal(res.reason, 'not_found');
        assert.equal(res.handoffId, 'HO-20990101-999');
        assert.deepEqual(ws.storeBytes(), bytes);
      });
    }

    it('a handoff can be named by its uid as well as its handoff_id', async () => {
      const h = handoffIn('queued');
      const ws = new TestWorkspace({ handoffs: [h] });
      const res = await ws.dispatch({ action: 'claimHandoff', handoff_id: h.uid, agent: 'claude' });
      assert.equal(res.ok, true, JSON.stringify(res));
      assert.equal(ws.stored(ID).status, 'in_progress');
    });
  });
});
