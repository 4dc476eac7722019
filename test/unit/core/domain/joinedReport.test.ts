// The joined return's words (docs/contract.md §6, "Fan-out and join"): the group's size is what it counts, so a child
// found neither in the store nor in the archive is still counted, as missing, never silently dropped.
import * as assert from 'node:assert/strict';
import { joinedSummary } from '../../../../src/core/domain/joinedReport';
import { handoffIn } from '../../helpers/handoffFixtures';

describe('joinedSummary', () => {
  const back = handoffIn('ready_for_review', { handoff_id: 'HO-20260221-002', summary: 'Look at login' });
  const gone = handoffIn('withdrawn', { handoff_id: 'HO-20260221-003', to_agents: ['scout'] });

  it('counts and names every child it has', () => {
    assert.equal(
      joinedSummary([back, gone]),
      'Joined return of 2 parallel passes: 1 returned; HO-20260221-003 (scout) withdrawn: Look at login',
    );
  });

  it('counts the group by its size when a child could not be found', () => {
    assert.match(
      joinedSummary([back, gone], 3),
      /^Joined return of 3 parallel passes: 1 returned; .*; 1 not found in the store or the archive: /,
    );
  });
});
