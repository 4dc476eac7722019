// A parse with PARSE_ONCE (the record a request changes, the configuration) skips zod's generated parser: it must
// accept and refuse exactly what the generated parser does, with the same issues.
import * as assert from 'node:assert/strict';
import { handoffSchema } from '../../../../src/core/domain/handoffSchema';
import { configSchema } from '../../../../src/core/domain/configSchema';
import { PARSE_ONCE } from '../../../../src/core/domain/parseOnce';
import { makeHandoff } from '../../helpers/handoffFixtures';

describe('parses with PARSE_ONCE', () => {
  const good = makeHandoff();
  const records: [string, unknown][] = [
    ['a valid record', good],
    ['a bad status', { ...good, status: 'bogus' }],
    ['a missing summary', { ...good, summary: undefined }],
    ['an unknown field in a history entry', { ...good, state_history: [{ ...good.state_history[0], extra: 1 }] }],
    ['a 5 KB summary', { ...good, summary: 'x'.repeat(5_000) }],
    ['not an object', 'HO-1'],
  ];
  for (const [what, record] of records) {
    it(`a record with ${what}: the same answer and issues as the generated parser`, () => {
      const once = handoffSchema.safeParse(record, PARSE_ONCE);
      const generated = handoffSchema.safeParse(record);
      assert.equal(once.success, what === 'a valid record');
      assert.equal(once.success, generated.success);
      assert.deepEqual(once.error?.issues, generated.error?.issues);
      assert.deepEqual(once.data, generated.data);
    });
  }

  it('the configuration: defaults and refusals are the same', () => {
    for (const config of [{}, { archive: { after_days: 3 } }, { archive: { after_days: 'soon' } }, { passOver: 1 }]) {
      const once = configSchema.safeParse(config, PARSE_ONCE);
      const generated = configSchema.safeParse(config);
      assert.equal(once.success, generated.success, JSON.stringify(config));
      assert.deepEqual(once.error?.issues, generated.error?.issues);
      assert.deepEqual(once.data, generated.data);
    }
  });
});
