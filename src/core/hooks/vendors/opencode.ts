// opencode: AGENTS.md, and a plugin in its plugin folder (`.opencode/plugins/agentsync.js`, from
// templates/opencode-plugin.js) rather than command hooks (docs/agentsync-documentation.md, "Hook packs"). The plugin
// runs `agentsync hook` with a small JSON of its own (session_id, cwd, tool, args) and reads back { context },
// { warn } or { deny }, { block }.
import { patchFiles } from './codex';
import { str, type HookInput, type Vendor } from './vendor';
import { shellWritesOf } from './claudeStyle';

function args(input: HookInput): Record<string, unknown> {
  const v = input.args;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function shellCommand(input: HookInput): string | null {
  const command = args(input).command;
  return str(input, 'tool') === 'bash' && typeof command === 'string' ? command : null;
}

export const opencode: Vendor = {
  id: 'opencode',
  name: 'opencode',
  instructionFiles: ['AGENTS.md'],
  startCommand: 'opencode',
  pack: {
    kind: 'file',
    file: '.opencode/plugins/agentsync.js',
    template: 'opencode-plugin.js',
    events: ['session-start', 'pre-tool-use', 'post-tool-use', 'stop'],
  },
  sessionEnv: [],
  beforeHooksRun: 'opencode: loads project plugins as they are; nothing to trust.',
  folder: (input: HookInput) => str(input, 'cwd') || null,
  sessionId: (input: HookInput) => str(input, 'session_id'),
  loopActive: () => false,
  context: (text: string) => ({ context: text }),
  preTool: {
    // write, edit, multiedit: filePath; apply_patch (offered to GPT models): patchText.
    tool: (input: HookInput) => str(input, 'tool'),
    shellCommand,
    writes: (input: HookInput) => {
      const tool = str(input, 'tool');
      const a = args(input);
      const patch = a.patchText ?? a.patch;
      if (tool === 'bash') return shellWritesOf(shellCommand(input));
      if (tool === 'apply_patch' || tool === 'patch') return typeof patch === 'string' ? patchFiles(patch) : [];
      if (!['write', 'edit', 'multiedit'].includes(tool)) return [];
      return typeof a.filePath === 'string' ? [a.filePath] : [];
    },
    warn: { when: 'before', output: (text: string) => ({ warn: text }) },
    deny: (reason: string) => ({ deny: reason }),
  },
  denyBeforeTool: { yes: 'tool.execute.before' },
  sessionEnd: {
    no: "opencode's plugin events say when a session goes idle (after every answer) or is deleted, never that its process ended",
  },
  blockStop: (reason: string) => ({ block: reason }),
  allowStop: () => ({}),
  runByAnother: () => false,
};
