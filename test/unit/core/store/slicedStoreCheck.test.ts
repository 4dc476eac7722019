// A large store read for the first time is checked a slice at a time (src/core/store/slicedStoreCheck.ts, used by
// HandoffStore.prepareFirstRead): it must accept and produce exactly what the whole-file schema check does, and the
// read that follows may use the result only for exactly the bytes that were checked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { handoffsFileSchema, type Handoff } from '../../../../src/core/domain/handoffSchema';
import { checkStoreInSlices, RECORDS_PER_SLICE } from '../../../../src/core/store/slicedStoreCheck';
import { makeHandoff } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const id = (i: number) => `HO-20260221-${String(i + 1).padStart(4, '0')}`;
const uid = (i: number) => `01JCHA1N${String(i).padStart(18, '0')}`;
const records = (n: number): Handoff[] => Array.from({ length: n }, (_, i) => makeHandoff({ handoff_id: id(i), uid: uid(i), rev: 1 }));
const noPause = () => Promise.resolve();

describe('checking a large store a slice at a time', () => {
  after(removeTempDirs);

  it('gives what the whole-file schema gives (defaults filled in), and pauses between slices', async () => {
    const text = JSON.stringify({ version: 1, handoffs: records(3 * RECORDS_PER_SLICE + 7) });
    let pauses = 0;
    const checked = await checkStoreInSlices(text, () => (pauses++, Promise.resolve()));
    assert.deepEqual(checked, handoffsFileSchema.parse(JSON.parse(text)));
    assert.ok(pauses >= 4, `paused ${pauses} times`);
  });

  it('refuses what the whole-file schema refuses', async () => {
    const good = { version: 1, handoffs: records(3) };
    const bad: unknown[] = [
      { ...good, extra: true },
      { ...good, version: 0 },
      { version: 1, handoffs: {} },
      { version: 1, handoffs: [...good.handoffs, { ...good.handoffs[0], status: 'bogus' }] },
      { version: 1, handoffs: [{ ...good.handoffs[0], unknown_field: 1 }] },
      [good],
      null,
    ];
    for (const b of bad) {
      assert.equal(handoffsFileSchema.safeParse(b).success, false, JSON.stringify(b));
      assert.equal(await checkStoreInSlices(JSON.stringify(b), noPause), null, JSON.stringify(b));
    }
    assert.equal(await checkStoreInSlices('{"version":1,"handoffs":[', noPause), null);
  });

  it('the first read uses the checked store; a store changed after the check is checked again, and refused if bad', async () => {
    const ws = new TestWorkspace({ handoffs: records(600) });
    const fresh = ws.newStore();
    await fresh.prepareFirstRead(noPause);
    assert.deepEqual(fresh.read().handoffs, ws.newStore().read().handoffs);

    // The reads above stamped the store; without a stamp the next first read is checked in slices again.
    fs.rmSync(ws.layout.validatedStampFile);
    const later = ws.newStore();
    let pauses = 0;
    await later.prepareFirstRead(() => (pauses++, Promise.resolve()));
    assert.ok(pauses > 1, 'checked in slices');
    const text = fs.readFileSync(ws.layout.handoffsFile, 'utf8').replace('"status": "queued"', '"status": "bogus"');
    assert.notEqual(text, fs.readFileSync(ws.layout.handoffsFile, 'utf8'));
    fs.writeFileSync(ws.layout.handoffsFile, text);
    assert.throws(
      () => later.read(),
      (e: Error & { reason?: string }) => e.reason === 'store_invalid' && /status/.test(e.message),
    );
  });

  it('a large store read for the first time is large; a store already read is not', () => {
    const ws = new TestWorkspace({ handoffs: records(Math.ceil((2.2 * 1024 * 1024) / JSON.stringify(makeHandoff(), null, 2).length)) });
    const store = ws.newStore();
    assert.ok(fs.statSync(ws.layout.handoffsFile).size >= 2 * 1024 * 1024, 'the fixture is over LARGE_STORE_BYTES');
    assert.equal(store.firstReadIsLarge(), true);
    store.read();
    assert.equal(store.firstReadIsLarge(), false);
    assert.equal(new TestWorkspace({ handoffs: records(3) }).newStore().firstReadIsLarge(), false);
  });
});
