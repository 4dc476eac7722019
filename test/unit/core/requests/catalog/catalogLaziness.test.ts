// The action catalog builds an action's parameter schema the first time the action runs, and keeps it
// (core/requests/catalog/actionDefinition.ts): a cold `agentsync claim` builds claim's schemas, not every action's.
import { strict as assert } from 'node:assert';
import * as z from 'zod';
import { defineAction } from '../../../../../src/core/requests/catalog/actionDefinition';
import { CATALOG } from '../../../../../src/core/requests/catalog';

describe('action catalog: schemas built on first use', () => {
  it('defining an action builds nothing; its first params() builds the schema once, later calls reuse it', () => {
    let built = 0;
    const entry = defineAction({
      params: () => {
        built++;
        return z.strictObject({ action: z.string() });
      },
      readOnly: true,
      description: 'test',
      run: () => ({}),
    });
    assert.equal(built, 0);
    const first = entry.params();
    assert.equal(entry.params(), first);
    assert.equal(built, 1);
  });

  it("the catalog's entries hand out one schema per action", () => {
    assert.equal(CATALOG.claimHandoff.params(), CATALOG.claimHandoff.params());
    assert.notEqual(CATALOG.claimHandoff.params(), CATALOG.heartbeat.params());
  });
});
