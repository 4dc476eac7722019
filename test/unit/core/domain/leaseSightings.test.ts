// Sync mode's lease expiry rule (src/core/domain/leaseSightings.ts, docs/contract.md §13 "Leases across clones"):
// a record counts as watched only from this clone's first sighting of its exact version, on this clone's clock.
import * as assert from 'node:assert/strict';
import { parseSightings, seenUnchangedFor, sight, type LeaseSightings } from '../../../../src/core/domain/leaseSightings';
import { makeHandoff } from '../../helpers/handoffFixtures';

const LEASE = 30 * 60_000;
const T0 = Date.parse('2026-03-10T12:00:00.000Z');

const held = (rev: number, updated: string, by = 'claude') =>
  makeHandoff({ uid: 'u1', status: 'in_progress', claimed_by: by, rev, updated_at: updated, lease_expires_at: '2020-01-01T00:00:00.000Z' });

describe('lease sightings', () => {
  it('a record never seen is not expired, whatever its lease_expires_at says', () => {
    assert.equal(seenUnchangedFor({}, held(3, '2020-01-01T00:00:00.000Z'), T0, LEASE), false);
  });

  it('expires only a full lease after the first sighting; a later sighting of the same version keeps the first', () => {
    const s: LeaseSightings = {};
    const h = held(3, '2026-03-10T11:00:00.000Z');
    assert.equal(sight(s, h, T0), true);
    assert.equal(sight(s, h, T0 + 10 * 60_000), false);
    assert.equal(seenUnchangedFor(s, h, T0 + LEASE - 1, LEASE), false);
    assert.equal(seenUnchangedFor(s, h, T0 + LEASE, LEASE), true);
  });

  it('a new rev, a new updated_at or a new holder starts the watch again', () => {
    for (const next of [
      held(4, '2026-03-10T11:00:00.000Z'),
      held(3, '2026-03-10T11:30:00.000Z'),
      held(3, '2026-03-10T11:00:00.000Z', 'codex'),
    ]) {
      const s: LeaseSightings = {};
      sight(s, held(3, '2026-03-10T11:00:00.000Z'), T0);
      assert.equal(seenUnchangedFor(s, next, T0 + 2 * LEASE, LEASE), false, 'the old sighting does not cover a changed record');
      assert.equal(sight(s, next, T0 + 2 * LEASE), true);
      assert.equal(seenUnchangedFor(s, next, T0 + 3 * LEASE - 1, LEASE), false);
    }
  });

  it('a clock set back starts the watch again from now rather than waiting for the future sighting', () => {
    const s: LeaseSightings = {};
    const h = held(3, '2026-03-10T11:00:00.000Z');
    sight(s, h, T0 + 10 * LEASE);
    assert.equal(sight(s, h, T0), true);
    assert.equal(seenUnchangedFor(s, h, T0 + LEASE, LEASE), true);
  });

  it('a stored file keeps only well-formed entries', () => {
    const parsed = parseSightings({
      ok: { rev: 1, updated_at: 'x', claimed_by: 'claude', seen_at: 5 },
      noRev: { updated_at: 'x', claimed_by: 'claude', seen_at: 5 },
      badSeen: { rev: 1, updated_at: 'x', claimed_by: 'claude', seen_at: 'soon' },
      badHolder: { rev: 1, updated_at: 'x', claimed_by: 7, seen_at: 5 },
      junk: 'no',
    });
    assert.deepEqual(Object.keys(parsed), ['ok']);
    assert.deepEqual(parseSightings([1, 2]), {});
    assert.deepEqual(parseSightings(null), {});
  });
});
