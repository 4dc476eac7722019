// The cold-start shortcut: a store this user wrote (its keyed-hash stamp matches the exact bytes) skips the schema
// pass; any other file, including a hand edit of ours with a hand-written stamp, is validated in full.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import { stampFor, stampStore } from '../../../../src/core/store/storeStamp';
import { fileStatKeyOf } from '../../../../src/core/disk/fileStatKey';
import { HandoffStore } from '../../../../src/core/store/handoffStore';
import { storeHashOfBytes } from '../../../../src/core/store/storeHash';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

describe('validated-store stamp', () => {
  after(removeTempDirs);

  async function seeded(): Promise<TestWorkspace> {
    const ws = new TestWorkspace();
    const r = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'one' },
    });
    assert.equal(r.ok, true, JSON.stringify(r));
    return ws;
  }

  it('a write leaves a stamp keyed to the exact bytes it wrote, and a fresh store reads that file', async () => {
    const ws = await seeded();
    const stamp = fs.readFileSync(ws.layout.validatedStampFile, 'utf8');
    assert.equal(stamp.split('\n')[0], stampFor(storeHashOfBytes(ws.storeBytes()).hash));
    assert.doesNotMatch(stamp, /^\d+:\d+:/, 'not a stat key anyone can compute');
    const fresh = ws.newStore();
    assert.equal(fresh.read().handoffs.length, 1);
  });

  it('a hand edit that breaks the schema is refused by a fresh store (store_invalid), and nothing is written', async () => {
    const ws = await seeded();
    const text = fs.readFileSync(ws.layout.handoffsFile, 'utf8').replace('"status": "queued"', '"status": "bogus"');
    fs.writeFileSync(ws.layout.handoffsFile, text);
    const second = ws.secondDispatcher();
    const r = await second.dispatch({ action: 'listHandoffs' });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'store_invalid');
    assert.match(String(r.message), /status/);
    assert.equal(fs.readFileSync(ws.layout.handoffsFile, 'utf8'), text);
  });

  it('a read that checked a store no stamp vouched for stamps it (a pull, then the next process skips the check)', async () => {
    const ws = await seeded();
    // Another machine's valid store: same records, other bytes (a different layout), and no stamp for them.
    const pulled = JSON.stringify(JSON.parse(ws.storeBytes().toString('utf8'))) + '\n';
    fs.writeFileSync(ws.layout.handoffsFile, pulled);
    const hash = storeHashOfBytes(Buffer.from(pulled)).hash;
    assert.notEqual(fs.readFileSync(ws.layout.validatedStampFile, 'utf8'), stampFor(hash));
    assert.equal((await ws.secondDispatcher().dispatch({ action: 'listHandoffs' })).ok, true);
    assert.equal(fs.readFileSync(ws.layout.validatedStampFile, 'utf8'), stampFor(hash), 'the read stamped what it checked');
    assert.equal(fs.readFileSync(ws.layout.handoffsFile, 'utf8'), pulled, 'the store itself is not rewritten by a read');
  });

  it('a read of a store that fails the check leaves the stamp as it was', async () => {
    const ws = await seeded();
    const before = fs.readFileSync(ws.layout.validatedStampFile, 'utf8');
    fs.writeFileSync(
      ws.layout.handoffsFile,
      fs.readFileSync(ws.layout.handoffsFile, 'utf8').replace('"status": "queued"', '"status": "bogus"'),
    );
    assert.equal((await ws.secondDispatcher().dispatch({ action: 'listHandoffs' })).reason, 'store_invalid');
    assert.equal(fs.readFileSync(ws.layout.validatedStampFile, 'utf8'), before);
  });

  it('a stamp that does not match (copied from elsewhere) does not skip validation', async () => {
    const ws = await seeded();
    fs.writeFileSync(ws.layout.handoffsFile, '{"version":1,"handoffs":[{"handoff_id":"nope"}]}\n');
    fs.writeFileSync(ws.layout.validatedStampFile, '1:2:3');
    const r = await ws.secondDispatcher().dispatch({ action: 'listHandoffs' });
    assert.equal(r.reason, 'store_invalid');
  });

  it('a trusted re-read serializes back to the identical bytes, and a changed record is re-serialized', async () => {
    const ws = await seeded();
    await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'two', notes: 'a\nb' },
    });
    const text = fs.readFileSync(ws.layout.handoffsFile, 'utf8');
    const snap = StoreSnapshot.parse(text, true);
    assert.equal(snap.serialize(), text);
    snap.replace({ ...snap.handoffs[0], summary: 'changed' });
    assert.deepEqual(
      (JSON.parse(snap.serialize()) as { handoffs: { summary: string }[] }).handoffs.map((h: { summary: string }) => h.summary),
      ['changed', 'two'],
    );
    const untrusted = StoreSnapshot.parse(text, false);
    assert.equal(untrusted.serialize(), text);
  });

  for (const [what, edit] of [
    ['status "bogus"', (t: string) => t.replace('"status": "queued"', '"status": "bogus"')],
    ['file "../../../etc/passwd"', (t: string) => t.replace('"files": []', '"files": ["../../../etc/passwd"]')],
  ] as const) {
    it(`a hand edit (${what}) with a hand-written stamp of its stat key, or of its content hash, is still store_invalid`, async () => {
      const ws = await seeded();
      const text = edit(fs.readFileSync(ws.layout.handoffsFile, 'utf8'));
      assert.notEqual(text, fs.readFileSync(ws.layout.handoffsFile, 'utf8'), 'the edit applied');
      fs.writeFileSync(ws.layout.handoffsFile, text);
      for (const forged of [
        (() => {
          const st = fs.statSync(ws.layout.handoffsFile);
          return `${st.ino}:${st.size}:${st.mtimeMs}`; // what the old stat-key stamp held
        })(),
        storeHashOfBytes(Buffer.from(text)).hash, // an unkeyed hash of the bytes
      ]) {
        fs.writeFileSync(ws.layout.validatedStampFile, forged);
        const r = await ws.secondDispatcher().dispatch({
          action: 'createHandoff',
          handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'x' },
        });
        assert.equal(r.reason, 'store_invalid', JSON.stringify(r));
        assert.equal(fs.readFileSync(ws.layout.handoffsFile, 'utf8'), text, 'nothing was written');
      }
    });
  }

  describe("the stat line (the store file's stat and its parts' digests)", () => {
    /** A store on `ws`'s folder whose info lines are kept (a rebuild of the derived files says why). */
    function storeLogging(ws: TestWorkspace): { store: HandoffStore; infos: string[] } {
      const infos: string[] = [];
      const store = new HandoffStore(ws.layout, {
        now: ws.clock.now,
        logger: { info: (m) => infos.push(m), warn: (m) => ws.warnings.push(m) },
      });
      return { store, infos };
    }

    it('a write records the stat of the file it renamed into place, and a fresh store takes the recorded digests as they are', async () => {
      const ws = await seeded();
      const lines = fs.readFileSync(ws.layout.validatedStampFile, 'latin1').split('\n');
      assert.equal(lines[1].split(' ')[1], fileStatKeyOf(ws.layout.handoffsFile), 'the stat of the store as it is now');
      // Digests the MAC vouches for, but not the bytes' own: a store that takes them names another store's hash, so
      // the derived files (state.json names the real one) are rebuilt. Proof that nothing was hashed.
      const bytes = ws.storeBytes();
      const { hash, chunks } = storeHashOfBytes(bytes);
      stampStore(ws.layout.validatedStampFile, hash, {
        stat: fileStatKeyOf(ws.layout.handoffsFile)!,
        digests: Buffer.alloc(chunks!.length * 32),
      });
      const { store, infos } = storeLogging(ws);
      await store.repairAtStart();
      assert.ok(
        infos.some((m) => /state\.json names another store/.test(m)),
        JSON.stringify(infos),
      );
    });

    it('a stat line whose digests were changed does not verify: the bytes are hashed, and the stamp written again', async () => {
      const ws = await seeded();
      const stamp = fs.readFileSync(ws.layout.validatedStampFile);
      const tampered = Buffer.from(stamp);
      tampered[tampered.length - 1] ^= 1;
      fs.writeFileSync(ws.layout.validatedStampFile, tampered);
      const { store, infos } = storeLogging(ws);
      await store.repairAtStart();
      assert.deepEqual(infos, [], 'the store hashed its bytes: the derived files are current');
      assert.deepEqual(fs.readFileSync(ws.layout.validatedStampFile), stamp, 'stamped again with the right digests');
    });

    it('a same-size hand edit with its modification time set back is validated in full (the change time moved)', async () => {
      const ws = await seeded();
      const before = fs.statSync(ws.layout.handoffsFile);
      const text = fs.readFileSync(ws.layout.handoffsFile, 'utf8').replace('"status": "queued"', '"status": "qu3ued"');
      assert.equal(Buffer.byteLength(text), before.size);
      fs.writeFileSync(ws.layout.handoffsFile, text);
      fs.utimesSync(ws.layout.handoffsFile, before.atime, before.mtime);
      const r = await ws.secondDispatcher().dispatch({ action: 'listHandoffs' });
      assert.equal(r.reason, 'store_invalid', JSON.stringify(r));
    });

    it('a hand edit with a stat line forged for its stat (without the key) is still store_invalid', async () => {
      const ws = await seeded();
      const stamp = fs.readFileSync(ws.layout.validatedStampFile, 'latin1');
      const text = fs.readFileSync(ws.layout.handoffsFile, 'utf8').replace('"status": "queued"', '"status": "bogus"');
      fs.writeFileSync(ws.layout.handoffsFile, text);
      const digests = stamp.slice(stamp.indexOf('\n', 65) + 1);
      const forged = `${stamp.split('\n')[0]}\nstat ${fileStatKeyOf(ws.layout.handoffsFile)} ${'0'.repeat(64)}\n${digests}`;
      fs.writeFileSync(ws.layout.validatedStampFile, forged, 'latin1');
      const r = await ws.secondDispatcher().dispatch({ action: 'listHandoffs' });
      assert.equal(r.reason, 'store_invalid', JSON.stringify(r));
    });
  });

  it('the stamp is rewritten in place, and never through a symlink', async () => {
    const ws = await seeded();
    const ino = fs.statSync(ws.layout.validatedStampFile).ino;
    await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'two' },
    });
    assert.equal(fs.statSync(ws.layout.validatedStampFile).ino, ino, 'the same file, not a renamed one');
    assert.equal(fs.readFileSync(ws.layout.validatedStampFile, 'utf8').split('\n')[0], stampFor(storeHashOfBytes(ws.storeBytes()).hash));
    const outside = `${ws.root}-outside-stamp`;
    fs.writeFileSync(outside, 'keep');
    fs.rmSync(ws.layout.validatedStampFile);
    fs.symlinkSync(outside, ws.layout.validatedStampFile);
    const r = await ws.dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'three' },
    });
    assert.equal(r.ok, true);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'keep');
    assert.ok(
      ws.warnings.some((w) => /validated-store stamp/.test(w)),
      ws.warnings.join(' | '),
    );
    fs.rmSync(outside);
  });
});
