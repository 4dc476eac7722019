// The store's identity (storeHash.ts): the hash of the parts a write hands to writev equals the hash of the bytes a
// later process reads back, for any store; any other byte string, however close, hashes differently.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { storeHashOfBytes, storeHashOfChunks } from '../../../../src/core/store/storeHash';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import { handoffIn } from '../../helpers/handoffFixtures';

const RUNS = Number(process.env.AGENTSYNC_PROPERTY_RUNS) || 200;

const snapshotOf = (summaries: string[], mark: string | undefined) =>
  new StoreSnapshot({
    version: 1,
    ...(mark ? { id_high_water: mark } : {}),
    handoffs: summaries.map((summary, i) => handoffIn('queued', { handoff_id: `HO-20260221-${String(i + 1).padStart(3, '0')}`, summary })),
  });

describe('store hash', () => {
  it(`parts and bytes agree; a changed, added or removed byte changes it [${RUNS} runs]`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: 6 }),
        fc.option(fc.constant('HO-20260101-007'), { nil: undefined }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (summaries, mark, at, delta) => {
          const snapshot = snapshotOf(summaries, mark);
          const chunks = snapshot.serializeChunks();
          const bytes = Buffer.concat(chunks);
          const fromBytes = storeHashOfBytes(bytes);
          assert.equal(storeHashOfChunks(chunks), fromBytes.hash);
          // The next write reuses the digests of the parts it did not change: still the hash of its bytes.
          if (summaries.length > 0) {
            const h = snapshot.handoffs[at % summaries.length];
            snapshot.replace({ ...h, summary: `${h.summary} again` });
            snapshot.insert({ ...h, handoff_id: 'HO-20260221-999', uid: '01KZZZZZZZZZZZZZZZZZZZZZZZ', summary: 'added' });
            const next = snapshot.serializeChunks();
            assert.equal(storeHashOfChunks(next), storeHashOfBytes(Buffer.concat(next)).hash);
          }
          assert.equal(fromBytes.chunks === null, summaries.length === 0, 'a store with records splits into its parts');
          const flipped = Buffer.from(bytes);
          flipped[at % bytes.length] = (flipped[at % bytes.length] + delta) % 256;
          assert.notEqual(storeHashOfBytes(flipped).hash, fromBytes.hash);
          assert.notEqual(storeHashOfBytes(bytes.subarray(0, bytes.length - 1)).hash, fromBytes.hash);
          assert.notEqual(storeHashOfBytes(Buffer.concat([bytes, Buffer.from(' ')])).hash, fromBytes.hash);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a file in another layout (compact JSON) is hashed whole, and the same bytes always give the same hash', () => {
    const compact = Buffer.from(JSON.stringify({ version: 1, handoffs: [handoffIn('queued')] }));
    const a = storeHashOfBytes(compact);
    assert.equal(a.chunks, null);
    assert.equal(storeHashOfBytes(Buffer.from(compact)).hash, a.hash);
  });
});
