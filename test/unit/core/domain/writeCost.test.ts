// What a write costs (docs/agentsync-documentation.md, "What a write costs"): the shortcuts that keep a write
// proportional to what it changes must never change what is written. state.json's trackerSection proves where the
// section is only for the exact file it names; a cold process reuses the section's blocks only for the store they
// were rendered from.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { findSection, HANDOFFS_HEADING, updateTrackerText } from '../../../../src/core/domain/trackerRenderer';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const create = (summary: string) => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary },
});

describe('what a write costs: the shortcuts write what a full render writes', () => {
  after(removeTempDirs);

  it("state.json's trackerSection names the section of the file written; the next write equals a full parse", async () => {
    const ws = new TestWorkspace();
    for (const s of ['one', 'two', 'three']) await ws.dispatch(create(s));
    const tracker = () => fs.readFileSync(ws.layout.trackerFile, 'utf8');
    const proof = ws.stateJson().trackerSection as { start: number; end: number };
    assert.deepEqual({ start: proof.start, end: proof.end }, findSection(tracker(), HANDOFFS_HEADING));
    const before = tracker();
    await ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20260310-002', agent: 'claude' });
    assert.equal(tracker(), updateTrackerText(before, ws.storedHandoffs()));
  });

  it('a process that keeps writing splices bytes into the tracker it wrote: each write equals a full render', async () => {
    const ws = new TestWorkspace();
    await ws.dispatch(create('première — ünïcode 🚀 before the edit'));
    const tracker = () => fs.readFileSync(ws.layout.trackerFile, 'utf8');
    // Text before the section with characters of 2, 3 and 4 bytes, and CRLF line ends: byte and character offsets differ.
    fs.writeFileSync(ws.layout.trackerFile, `# Tracker ✓ é 🚀\r\n\r\nNotes — ünïcode.\r\n\r\n${tracker().replace(/\n/g, '\r\n')}`);
    let before = tracker();
    for (let i = 0; i < 12; i++) {
      const r = await ws.dispatch(create(`handoff ${i} ✨ ${'é'.repeat(i)}`));
      assert.equal(r.ok, true, JSON.stringify(r));
      if (i % 3 === 0) {
        const id = (r.data!.handoff as Handoff).handoff_id;
        assert.equal((await ws.dispatch({ action: 'claimHandoff', handoffId: id, agent: 'claude' })).ok, true);
      }
      const after = tracker();
      assert.equal(after, updateTrackerText(before, ws.storedHandoffs()), `write ${i}`);
      assert.ok(after.startsWith('# Tracker ✓ é 🚀\r\n\r\nNotes — ünïcode.\r\n'), 'the text before the section is kept');
      assert.ok(!/[^\r]\n/.test(after), 'CRLF kept');
      if (i === 6) fs.writeFileSync(ws.layout.trackerFile, after + 'A human line after the section ✓\r\n'); // parsed again
      before = tracker();
    }
    const proof = ws.stateJson().trackerSection as { start: number; end: number };
    assert.deepEqual({ start: proof.start, end: proof.end }, findSection(tracker(), HANDOFFS_HEADING));
  });

  it('a human edit of the tracker (around or inside the section) is parsed again and kept', async () => {
    const ws = new TestWorkspace();
    await ws.dispatch(create('one'));
    const edited = fs.readFileSync(ws.layout.trackerFile, 'utf8').replace(HANDOFFS_HEADING, `## Notes\n\nkeep me\n\n${HANDOFFS_HEADING}`);
    fs.writeFileSync(ws.layout.trackerFile, edited + '\n## After\n\nand me\n');
    await ws.dispatch(create('two'));
    const text = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    assert.match(text, /## Notes\n\nkeep me\n\n## Agent Handoffs/);
    assert.match(text, /## After\n\nand me\n$/);
    assert.equal(text, updateTrackerText(text, ws.storedHandoffs()), 'the section is where a parser finds it');
  });

  it('a new process renders a record changed behind its back, not the old block', async () => {
    const ws = new TestWorkspace();
    for (const s of ['one', 'two']) await ws.dispatch(create(s));
    const file = JSON.parse(fs.readFileSync(ws.layout.handoffsFile, 'utf8')) as { version: 1; handoffs: Handoff[] };
    file.handoffs[0] = { ...file.handoffs[0], notes: 'edited by hand', rev: 9 };
    fs.writeFileSync(ws.layout.handoffsFile, JSON.stringify(file, null, 2) + '\n');
    const r = await ws.secondDispatcher().dispatch({ action: 'claimHandoff', handoffId: 'HO-20260310-002', agent: 'claude' });
    assert.equal(r.ok, true, JSON.stringify(r));
    const text = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    assert.match(text, /note: edited by hand/);
    assert.equal(text, updateTrackerText(text, ws.storedHandoffs()));
  });

  it('a new process reusing the blocks writes what a full render writes', async () => {
    const ws = new TestWorkspace();
    for (const s of ['one', 'two', 'three']) await ws.dispatch(create(s));
    const before = fs.readFileSync(ws.layout.trackerFile, 'utf8');
    const r = await ws.secondDispatcher().dispatch({ action: 'claimHandoff', handoffId: 'HO-20260310-003', agent: 'claude' });
    assert.equal(r.ok, true);
    assert.equal(fs.readFileSync(ws.layout.trackerFile, 'utf8'), updateTrackerText(before, ws.storedHandoffs()));
  });
});
