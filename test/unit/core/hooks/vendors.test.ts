// The vendor modules (src/core/hooks/vendors/): one record, from which the hook formats, the packs and the instruction
// files derive. Each module's pack carries the events it answers, in the vendor's own names.
import * as assert from 'node:assert/strict';
import { INSTRUCTION_FILES, VENDOR_IDS, VENDORS, vendorOf, type VendorId } from '../../../../src/core/hooks/vendors';
import { patchFiles } from '../../../../src/core/hooks/vendors/codex';
import { can, type HookEvent } from '../../../../src/core/hooks/vendors/vendor';

/**
 * What each vendor can do, keyed by the vendor record (a vendor added there does not compile here until it is
 * stated): the event that ends a session (null: none, its passes go back only when their lease lapses, E010) and the
 * event that refuses a tool before it runs (null: none, so it is refused a limited pass at claim, E013).
 */
const CAN: { [K in VendorId]: { sessionEnd: string | null; denyBeforeTool: string | null } } = {
  claude: { sessionEnd: 'SessionEnd', denyBeforeTool: 'PreToolUse' },
  codex: { sessionEnd: 'SessionEnd', denyBeforeTool: 'PreToolUse' },
  cursor: { sessionEnd: 'sessionEnd', denyBeforeTool: null },
  copilot: { sessionEnd: 'sessionEnd', denyBeforeTool: 'preToolUse' },
  gemini: { sessionEnd: 'SessionEnd', denyBeforeTool: 'BeforeTool' },
  opencode: { sessionEnd: null, denyBeforeTool: 'tool.execute.before' },
};

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

  it('which vendors end a session and deny before a tool: each module says it, and its pack has the entry exactly then', () => {
    for (const id of VENDOR_IDS) {
      const v = VENDORS[id];
      const named = (c: typeof v.sessionEnd) => (can(c) ? c.yes : null);
      assert.deepEqual({ sessionEnd: named(v.sessionEnd), denyBeforeTool: named(v.denyBeforeTool) }, CAN[id], id);
      for (const c of [v.sessionEnd, v.denyBeforeTool]) if (!can(c)) assert.ok(c.no.length > 20, `${id} says why not`);
      const entries = v.pack.kind === 'json' ? v.pack.entries : [];
      const events: readonly HookEvent[] = v.pack.kind === 'json' ? entries.map((e) => e.event) : v.pack.events;
      assert.equal(events.includes('session-end'), can(v.sessionEnd), `${id}: a session-end entry exactly when it has one`);
      if (can(v.sessionEnd) && v.pack.kind === 'json')
        assert.equal(entries.find((e) => e.event === 'session-end')!.name, v.sessionEnd.yes, `${id}: under the vendor's own name`);
      assert.equal(can(v.denyBeforeTool), v.preTool !== null, `${id}: denies before a tool exactly when it has a pre-tool dialect`);
    }
  });

  it("each vendor's shell tool gives its command to the read-only rule; other tools give none", () => {
    const shell: { [K in VendorId]: Record<string, unknown> | null } = {
      claude: { tool_name: 'Bash', tool_input: { command: 'git diff' } },
      codex: { tool_name: 'exec_command', tool_input: { cmd: 'git diff' } },
      cursor: null,
      copilot: { toolName: 'bash', toolArgs: JSON.stringify({ command: 'git diff' }) },
      gemini: { tool_name: 'run_shell_command', tool_input: { command: 'git diff' } },
      opencode: { tool: 'bash', args: { command: 'git diff' } },
    };
    for (const id of VENDOR_IDS) {
      const dialect = VENDORS[id].preTool;
      const input = shell[id];
      if (!dialect || !input) {
        assert.equal(dialect, null, `${id}: a shell input is stated for every vendor with a pre-tool dialect`);
        continue;
      }
      assert.equal(dialect.shellCommand(input), 'git diff', id);
      assert.equal(dialect.shellCommand({ tool_name: 'Read', toolName: 'view', tool: 'read', tool_input: { command: 'x' } }), null, id);
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
