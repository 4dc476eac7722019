// The vendor modules (src/core/hooks/vendors/): one record, from which the hook formats, the packs and the instruction
// files derive. Each module's pack carries the events it answers, in the vendor's own names.
import * as assert from 'node:assert/strict';
import { INSTRUCTION_FILES, VENDOR_IDS, VENDORS, vendorOf } from '../../../../src/core/hooks/vendors';
import { patchFiles } from '../../../../src/core/hooks/vendors/codex';
import type { HookEvent } from '../../../../src/core/hooks/vendors/vendor';

describe('vendor modules', () => {
  it('each is registered under its own id, and an unknown id is no vendor', () => {
    for (const id of VENDOR_IDS) assert.equal(VENDORS[id].id, id);
    assert.equal(vendorOf('toString'), null);
    assert.equal(vendorOf('nobody'), null);
  });

  it('each pack runs session-start, post-tool-use and stop, and pre-tool-use exactly when the vendor has a pre-tool dialect', () => {
    for (const id of VENDOR_IDS) {
      const v = VENDORS[id];
      const events: readonly HookEvent[] = v.pack.kind === 'json' ? v.pack.entries.map((e) => e.event) : v.pack.events;
      for (const e of ['session-start', 'post-tool-use', 'stop'] as const) assert.ok(events.includes(e), `${id} runs ${e}`);
      assert.equal(events.includes('pre-tool-use'), v.preTool !== null, `${id}: pre-tool-use hook and dialect go together`);
      if (v.pack.kind === 'json')
        for (const { entry, event } of v.pack.entries)
          assert.ok(JSON.stringify(entry).includes(`agentsync hook ${event} --agent ${id} --format ${id}`), `${id} ${event}`);
    }
  });

  it('every instruction file a vendor reads is written, each once', () => {
    for (const id of VENDOR_IDS) for (const f of VENDORS[id].instructionFiles) assert.ok(INSTRUCTION_FILES.includes(f), `${id}: ${f}`);
    assert.equal(new Set(INSTRUCTION_FILES).size, INSTRUCTION_FILES.length);
    assert.deepEqual([...INSTRUCTION_FILES], ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', 'GEMINI.md']);
  });

  it("a Codex patch names every file it adds, updates, deletes or moves to; other lines don't count", () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+*** Update File: not/a/header.ts',
      '*** Update File: src/old.ts',
      '*** Move to: src/renamed.ts',
      '*** Delete File: src/gone.ts',
      '*** End Patch',
    ].join('\n');
    assert.deepEqual(patchFiles(patch), ['src/new.ts', 'src/old.ts', 'src/renamed.ts', 'src/gone.ts']);
  });
});
