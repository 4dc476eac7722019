// The snapshot's id allocator is made when a request first needs an id: whatever the snapshot did before (records
// inserted, records archived), the id it hands out is above every id it held.
import * as assert from 'node:assert/strict';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import { makeHandoff } from '../../helpers/handoffFixtures';

const DAY = new Date('2026-01-01T12:00:00Z');

function snapshotOf(...ids: string[]): StoreSnapshot {
  return new StoreSnapshot({
    version: 1,
    handoffs: ids.map((id, i) => makeHandoff({ handoff_id: id, uid: `01J00000000000000000000${i}` })),
  });
}

describe('the snapshot allocates ids above every id it held', () => {
  it('a record inserted before the first allocation', () => {
    const s = snapshotOf('HO-20260101-001', 'HO-20260101-002');
    s.insert(makeHandoff({ handoff_id: 'HO-20260101-007', uid: '01J000000000000000000000X9' }));
    assert.equal(s.ids.next(DAY), 'HO-20260101-008');
    assert.equal(s.ids.next(DAY), 'HO-20260101-009');
  });

  it('a record inserted after an allocation', () => {
    const s = snapshotOf('HO-20260101-001');
    assert.equal(s.ids.next(DAY), 'HO-20260101-002');
    s.insert(makeHandoff({ handoff_id: 'HO-20260101-010', uid: '01J000000000000000000000X9' }));
    assert.equal(s.ids.next(DAY), 'HO-20260101-011');
  });

  it('the highest records archived before the first allocation', () => {
    const s = snapshotOf('HO-20260101-001', 'HO-20260101-005');
    s.removeArchived(new Set([s.find('HO-20260101-005')!.uid!]));
    assert.equal(s.ids.next(DAY), 'HO-20260101-006');
  });
});
