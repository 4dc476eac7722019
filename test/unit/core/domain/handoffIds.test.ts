// The next handoff id (docs/contract.md §3, §9a): above every id the records and the archive's high-water mark used,
// and a mark that a committed file forged cannot use up a day's ids when the archive does not back it.
import * as assert from 'node:assert/strict';
import { HandoffIdAllocator } from '../../../../src/core/domain/handoffIds';
import { isActionError } from '../../../../src/core/domain/errors';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';

const NOW = new Date('2026-11-28T12:00:00Z');
const record = (id: string) => ({ handoff_id: id }) as Handoff;

describe('HandoffIdAllocator: the high-water mark', () => {
  it('a mark the archive backs is kept: the next id comes after it', () => {
    const ids = new HandoffIdAllocator([record('HO-20261128-002')], 'HO-20261128-040', NOW, () => 40);
    assert.equal(ids.next(NOW), 'HO-20261128-041');
  });

  it('a mark at the last number of today that no archived record backs falls to what the archive holds', () => {
    let asked = 0;
    const ids = new HandoffIdAllocator([record('HO-20261128-001')], 'HO-20261128-999999', NOW, (day) => {
      asked++;
      assert.equal(day, '20261128');
      return 7;
    });
    assert.equal(ids.next(NOW), 'HO-20261128-008');
    assert.equal(ids.next(NOW), 'HO-20261128-009');
    assert.equal(asked, 1, 'the archive is asked once, only when the day seemed used up');
  });

  it('a mark the archive does back at the last number still answers ids_exhausted', () => {
    const ids = new HandoffIdAllocator([], 'HO-20261128-999999', NOW, () => 999_999);
    assert.throws(
      () => ids.next(NOW),
      (e: unknown) => isActionError(e) && e.reason === 'ids_exhausted',
    );
  });

  it('without an archive to ask, the mark stands (ids_exhausted)', () => {
    const ids = new HandoffIdAllocator([], 'HO-20261128-999999', NOW);
    assert.throws(
      () => ids.next(NOW),
      (e: unknown) => isActionError(e) && e.reason === 'ids_exhausted',
    );
  });
});
