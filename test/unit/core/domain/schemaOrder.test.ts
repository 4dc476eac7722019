import * as assert from 'node:assert/strict';
import { handoffSchema } from '../../../../src/core/domain/handoffSchema';
import { withPreviousId } from '../../../../src/core/domain/previousIds';
import { inSchemaOrder } from '../../../../src/core/domain/schemaOrder';
import { makeHandoff } from '../../helpers/handoffFixtures';

describe('inSchemaOrder: whether a record is written as a parse by the schema would write it', () => {
  const parsed = handoffSchema.parse(makeHandoff({ handoff_id: 'HO-20261123-001' }));

  it('a record the schema parsed is in its order', () => {
    assert.equal(inSchemaOrder(parsed), true);
  });

  it('a claim spread onto a renumbered record appends claimed_by after previous_ids: not in order, and its parse reorders it', () => {
    const renumbered = withPreviousId(parsed, 'HO-20261123-009');
    const claimed = { ...renumbered, claimed_by: 'claude', claimed_at: '2026-11-23T10:00:00.000Z' };
    assert.equal(inSchemaOrder(claimed), false);
    const again = handoffSchema.parse(claimed);
    assert.equal(inSchemaOrder(again), true);
    assert.notEqual(JSON.stringify(claimed), JSON.stringify(again), 'the same record, other bytes: why such a record is parsed again');
  });

  it('a field the schema does not know is not in order', () => {
    assert.equal(inSchemaOrder({ ...parsed, extra: 1 }), false);
  });
});
