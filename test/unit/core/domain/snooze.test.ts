// snoozeHandoff (docs/contract.md §8): `until` read as a duration or an ISO time, and a snoozed handoff out of
// "Assigned to me" and the stale badge until its snooze ends; the action through the dispatcher.
import { strict as assert } from 'node:assert';
import { attentionGroupOf, staleAssignedTo } from '../../../../src/core/domain/handoffAttention';
import { isSnoozed, snoozeEnd } from '../../../../src/core/domain/snoozeTime';
import { isActionError } from '../../../../src/core/domain/errors';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { handoffIn } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const now = new Date('2026-03-10T12:00:00.000Z');
const refused = (until: string) => {
  try {
    snoozeEnd(until, now);
  } catch (e) {
    assert.ok(isActionError(e) && e.reason === 'invalid_request', String(e));
    return e.message;
  }
  assert.fail(`${until} was accepted`);
};

describe('snoozeHandoff (docs/contract.md §8)', () => {
  after(removeTempDirs);

  it('until: a duration from now (m, h, d, w) or an ISO time with its offset', () => {
    assert.equal(snoozeEnd('2h', now), '2026-03-10T14:00:00.000Z');
    assert.equal(snoozeEnd('30m', now), '2026-03-10T12:30:00.000Z');
    assert.equal(snoozeEnd('1d', now), '2026-03-11T12:00:00.000Z');
    assert.equal(snoozeEnd('1w', now), '2026-03-17T12:00:00.000Z');
    assert.equal(snoozeEnd('2026-03-12T09:00:00+01:00', now), '2026-03-12T08:00:00.000Z');
  });

  it('until that is unreadable, past or over 30 days is refused saying what to write', () => {
    assert.match(refused('tomorrow'), /neither a duration \(30m, 2h, 1d, 1w\) nor an ISO time/);
    assert.match(refused('2026-03-12 09:00'), /neither a duration/);
    assert.match(refused('2026-03-09T09:00:00Z'), /not in the future/);
    assert.match(refused('31d'), /at most 30d/);
  });

  it('a snoozed handoff leaves "Assigned to me" and the stale badge until the snooze ends', () => {
    const config = { staleAfterHours: 1 };
    const stale = handoffIn('queued', { to_agents: ['claude'], updated_at: '2026-03-10T06:00:00.000Z' });
    const snoozed = { ...stale, snoozed_until: '2026-03-10T14:00:00.000Z' };
    const ctx = { me: 'claude', humans: [], config, now };
    assert.equal(attentionGroupOf(stale, ctx), 'blockedStale');
    assert.equal(attentionGroupOf(snoozed, ctx), 'other');
    assert.equal(staleAssignedTo([stale], 'claude', config, now).length, 1);
    assert.equal(staleAssignedTo([snoozed], 'claude', config, now).length, 0);
    const fresh = handoffIn('queued', { to_agents: ['claude'], updated_at: now.toISOString() });
    assert.equal(attentionGroupOf(fresh, ctx), 'assigned');
    assert.equal(attentionGroupOf({ ...fresh, snoozed_until: '2026-03-10T14:00:00.000Z' }, ctx), 'other');
    // When the snooze ends it is back.
    const later = { ...ctx, now: new Date('2026-03-10T14:00:01.000Z') };
    assert.equal(isSnoozed(snoozed, later.now), false);
    assert.equal(attentionGroupOf(snoozed, later), 'blockedStale');
  });

  it('the action stores snoozed_until with a history line; a finished handoff or a bad until is refused and nothing changes', async () => {
    const ws = new TestWorkspace();
    const made = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'Wait for the release' },
    });
    const id = (made.data!.handoff as Handoff).handoff_id;
    const ok = await ws.dispatch({ action: 'snoozeHandoff', handoffId: id, agent: 'claude', until: '2h' });
    assert.equal(ok.ok, true, JSON.stringify(ok));
    assert.equal(ws.stored(id).snoozed_until, '2026-03-10T14:00:00.000Z');
    assert.equal(ws.auditEntries().at(-1)!.reason, 'snoozed until 2026-03-10T14:00:00.000Z');
    const before = ws.storeBytes();
    const bad = await ws.dispatch({ action: 'snoozeHandoff', handoffId: id, agent: 'claude', until: 'later' });
    assert.equal(bad.reason, 'invalid_request');
    assert.equal(bad.field, 'until');
    const stranger = await ws.dispatch({ action: 'snoozeHandoff', handoffId: id, agent: 'gemini', until: '2h' });
    assert.equal(stranger.reason, 'not_assigned');
    assert.deepEqual(ws.storeBytes(), before);
    await ws.dispatch({ action: 'transitionHandoff', handoffId: id, agent: 'claude', to: 'escalated', reason: 'x' });
    const done = await ws.dispatch({ action: 'snoozeHandoff', handoffId: id, agent: 'claude', until: '2h' });
    assert.equal(done.reason, 'illegal_transition');
  });
});
