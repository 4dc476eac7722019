// Re-reading a store no stamp vouches for (docs/agentsync-documentation.md, "Files"): records whose text did not
// change are the previous snapshot's own objects, changed ones are parsed and schema-checked, and anything odd
// falls back to the whole-file check with its usual message.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import { makeHandoff } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

/** A queued record with a fixed uid and date, so two writes of the same record are the same bytes. */
function record(n: number, summary = `handoff ${n}`): Record<string, unknown> {
  const at = '2025-01-01T00:00:00.000Z';
  return makeHandoff({
    handoff_id: `HO-20250101-${String(n).padStart(3, '0')}`,
    task_id: null,
    summary,
    notes: '',
    files: [],
    created_at: at,
    updated_at: at,
    state_history: [{ status: 'queued', agent: 'codex', timestamp: at, reason: 'created' }],
    uid: `01JXK${String(n).padStart(21, '0')}`,
    rev: 1,
  });
}

const fileText = (records: unknown[]) => JSON.stringify({ version: 1, handoffs: records }, null, 2) + '\n';
const three = () => [record(1), record(2), record(3)];

describe('re-reading a store another process wrote', () => {
  after(removeTempDirs);

  it('keeps the unchanged records (same objects) and takes the changed one', () => {
    const before = StoreSnapshot.parse(fileText(three()));
    const after = StoreSnapshot.parse(fileText([record(1), record(2, 'edited'), record(3), record(4)]), false, { previous: before });
    assert.equal(after.handoffs[0], before.handoffs[0]);
    assert.equal(after.handoffs[2], before.handoffs[2]);
    assert.notEqual(after.handoffs[1], before.handoffs[1]);
    assert.equal(after.handoffs[1].summary, 'edited');
    assert.equal(after.handoffs[3].handoff_id, 'HO-20250101-004');
  });

  it('after records are removed, inserted and moved, every record whose bytes are unchanged is still the same object', () => {
    const records = Array.from({ length: 8 }, (_, i) => record(i + 1));
    const before = StoreSnapshot.parse(fileText(records));
    // 2 and 5 removed, 9 added first, 8 moved up, 4 edited: the offset changes several times.
    const next = [record(9), record(1), record(3), record(4, 'edited'), record(8), record(6), record(7)];
    const after = StoreSnapshot.parse(fileText(next), false, { previous: before });
    const old = (n: number) => before.handoffs[n - 1];
    assert.deepEqual(
      after.handoffs.map((h) => h.handoff_id),
      next.map((r) => r.handoff_id),
    );
    for (const [i, n] of [1, 3, 8, 6, 7].map((n) => [next.findIndex((r) => r.handoff_id === old(n).handoff_id), n])) {
      assert.equal(after.handoffs[i], old(n), `record ${n} is reused`);
    }
    assert.equal(after.handoffs[3].summary, 'edited');
    assert.notEqual(after.handoffs[3], old(4));
  });

  it('keeps the id high-water mark of the head when only records changed', () => {
    const text = (rs: unknown[]) => fileText(rs).replace('"version": 1,\n', '"version": 1,\n  "id_high_water": "HO-20250101-050",\n');
    const before = StoreSnapshot.parse(text(three()));
    const after = StoreSnapshot.parse(text([record(1), record(2, 'edited'), record(3)]), false, { previous: before });
    assert.equal(after.handoffs[0], before.handoffs[0]);
    assert.equal(after.highWater, 'HO-20250101-050');
  });

  it('a changed record that breaks the schema is refused with the whole-file message (the field, its index)', () => {
    const before = StoreSnapshot.parse(fileText(three()));
    const bad = fileText([record(1), { ...record(2), status: 'bogus' }, record(3)]);
    const expected = (() => {
      try {
        StoreSnapshot.parse(bad);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    })();
    assert.throws(
      () => StoreSnapshot.parse(bad, false, { previous: before }),
      (e: Error) => e.message === expected && /status/.test(e.message),
    );
  });

  it('a changed record that is not valid JSON is refused as invalid JSON', () => {
    const before = StoreSnapshot.parse(fileText(three()));
    const text = fileText(three()).replace('"summary": "handoff 2"', '"summary": "handoff 2",');
    assert.throws(() => StoreSnapshot.parse(text, false, { previous: before }), /not valid JSON/);
  });

  it('a hand-formatted file (not the written layout) is checked whole', () => {
    const before = StoreSnapshot.parse(fileText(three()));
    const after = StoreSnapshot.parse(JSON.stringify({ version: 1, handoffs: three() }), false, { previous: before });
    assert.notEqual(after.handoffs[0], before.handoffs[0]);
    assert.deepEqual(after.handoffs[0], before.handoffs[0]);
    assert.throws(() => StoreSnapshot.parse(JSON.stringify({ version: 0, handoffs: three() }), false, { previous: before }), /schema/);
  });

  it('records this process wrote are recognized by their written text after another process edits one', async () => {
    const ws = new TestWorkspace();
    for (const summary of ['one', 'two']) {
      const r = await ws.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary },
      });
      assert.equal(r.ok, true, JSON.stringify(r));
    }
    const store = ws.store;
    const before = store.read();
    const [first, second] = before.handoffs;
    fs.writeFileSync(ws.layout.handoffsFile, fs.readFileSync(ws.layout.handoffsFile, 'utf8').replace('"summary": "two"', '"summary": "2"'));
    fs.rmSync(ws.layout.validatedStampFile);
    const after = store.read();
    assert.equal(after.handoffs[0], first);
    assert.notEqual(after.handoffs[1], second);
    assert.equal(after.handoffs[1].summary, '2');
  });

  it('the same bytes under a new stat (rewritten unchanged) keep the snapshot', () => {
    const ws = new TestWorkspace();
    fs.mkdirSync(ws.layout.dataDir, { recursive: true });
    fs.writeFileSync(ws.layout.handoffsFile, fileText(three()));
    const before = ws.store.read();
    fs.writeFileSync(ws.layout.handoffsFile, fileText(three()));
    fs.utimesSync(ws.layout.handoffsFile, new Date('2001-01-01'), new Date('2001-01-01')); // surely a new stat key
    assert.equal(ws.store.read(), before);
  });
});
