// The cold-start shortcut: a store this machine wrote (stat stamp matches) skips the schema pass;
// any other file, including a hand edit of ours, is validated in full.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { StoreSnapshot } from '../../src/core/storeSnapshot';
import { removeTempDirs, TestWorkspace } from './helpers/testWorkspace';

describe('validated-store stamp', () => {
  after(removeTempDirs);

  async function seeded(): Promise<TestWorkspace> {
    const ws = new TestWorkspace();
    const r = await ws.dispatch({ action: 'createHandoff', handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'one' } });
    assert.equal(r.ok, true, JSON.stringify(r));
    return ws;
  }

  it('a write leaves a stamp naming the file it wrote, and a fresh store reads that file', async () => {
    const ws = await seeded();
    const st = fs.statSync(ws.layout.handoffsFile);
    assert.equal(fs.readFileSync(ws.layout.validatedStampFile, 'utf8'), `${st.ino}:${st.size}:${st.mtimeMs}`);
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

  it('a stamp that does not match (copied from elsewhere) does not skip validation', async () => {
    const ws = await seeded();
    fs.writeFileSync(ws.layout.handoffsFile, '{"version":1,"handoffs":[{"handoff_id":"nope"}]}\n');
    fs.writeFileSync(ws.layout.validatedStampFile, '1:2:3');
    const r = await ws.secondDispatcher().dispatch({ action: 'listHandoffs' });
    assert.equal(r.reason, 'store_invalid');
  });

  it('a trusted re-read serializes back to the identical bytes, and a changed record is re-serialized', async () => {
    const ws = await seeded();
    await ws.dispatch({ action: 'createHandoff', handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: 'two', notes: 'a\nb' } });
    const text = fs.readFileSync(ws.layout.handoffsFile, 'utf8');
    const snap = StoreSnapshot.parse(text, true);
    assert.equal(snap.serialize(), text);
    snap.replace({ ...snap.handoffs[0], summary: 'changed' });
    assert.deepEqual(JSON.parse(snap.serialize()).handoffs.map((h: { summary: string }) => h.summary), ['changed', 'two']);
    const untrusted = StoreSnapshot.parse(text, false);
    assert.equal(untrusted.serialize(), text);
  });
});
