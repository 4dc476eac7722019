// Each tool-hook reader declares what it reads of the record (core/hooks/hookReaders.ts) and sees only that; the hooks'
// index (core/store/hookIndex.ts) is built from those declarations. A reader's need missing from the index would make
// the hook wrong exactly when the index is fresh (the withdrawal notice and the permission check once were).
import * as assert from 'node:assert/strict';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { HOOK_READERS, hookView, type HookNeed, type HookReader } from '../../../../src/core/hooks/hookReaders';
import { hookIndexBytes } from '../../../../src/core/store/hookIndex';
import { recordsContaining } from '../../../../src/core/hooks/storeScan';
import { headFor, recordText, SEPARATOR, TAIL } from '../../../../src/core/store/storeFormat';
import { makeHandoff } from '../../helpers/handoffFixtures';

const HASH = 'b'.repeat(64);
const READERS = Object.keys(HOOK_READERS) as HookReader[];

/** A record of `status` carrying every field any reader declares (a sentinel where the fixture has none). */
function fullRecord(status: string, n: number): Handoff {
  const h = makeHandoff({ handoff_id: `HO-20260310-00${n}`, uid: `01JTESTUID000000000000000${n}` }) as unknown as Record<string, unknown>;
  h.status = status;
  for (const need of Object.values(HOOK_READERS) as HookNeed[])
    if (need.fields !== '*') for (const k of need.fields) h[k] ??= { sentinel: k };
  h.notes = 'nobody declares notes for in_progress';
  return h as unknown as Handoff;
}

const storeOf = (handoffs: Handoff[]) =>
  Buffer.concat([headFor(undefined, 2), Buffer.from(handoffs.map(recordText).join(SEPARATOR.toString())), TAIL]);
const recordsOf = (bytes: Buffer) => (JSON.parse(bytes.toString('utf8')) as { handoffs: Record<string, unknown>[] }).handoffs;

describe("hook readers: each declares what it reads, and the hooks' index holds it", () => {
  const statuses = [...new Set(READERS.flatMap((r) => HOOK_READERS[r].statuses))];
  const handoffs = [...statuses, 'queued', 'merged'].map((s, i) => fullRecord(s, i + 1));
  const index = hookIndexBytes(handoffs, '1:2:3:4:5', HASH);
  const store = storeOf(handoffs);

  for (const reader of READERS) {
    it(`${reader}: every status and field it declares is in the index, and it sees the same through the index as through the store`, () => {
      const need: HookNeed = HOOK_READERS[reader];
      const indexed = recordsOf(index);
      for (const status of need.statuses) {
        const rec = indexed.find((h) => h.status === status);
        assert.ok(rec, `${reader} reads ${status} records: the index has none`);
        const want = need.fields === '*' ? Object.keys(handoffs.find((h) => h.status === status)!) : need.fields;
        for (const field of want) assert.notEqual(rec[field], undefined, `${reader} reads ${status}.${field}: the index lacks it`);
      }
      assert.deepEqual(hookView(reader, recordsOf(index)), hookView(reader, recordsOf(store)));
      // The hooks' own scan, as a reader finds its records by text.
      assert.deepEqual(hookView(reader, recordsContaining(index, ['"status"'])), hookView(reader, recordsContaining(store, ['"status"'])));
    });
  }

  it('a reader sees only the statuses and fields it declared, from the store as from the index', () => {
    const seen = hookView('conflictRadar', recordsOf(store));
    assert.deepEqual(
      seen.map((h) => h.status),
      ['in_progress'],
    );
    assert.equal(seen[0].notes, undefined);
    assert.equal(seen[0].files !== undefined, true);
    assert.equal(hookView('withdrawNotices', recordsOf(store))[0].notes, 'nobody declares notes for in_progress', 'a whole record');
  });

  it('holds nothing a reader does not declare', () => {
    const indexed = recordsOf(index);
    assert.deepEqual([...new Set(indexed.map((h) => h.status))].sort(), [...statuses].sort());
    const claim = indexed.find((h) => h.status === 'in_progress')!;
    assert.equal(claim.notes, undefined);
  });
});
