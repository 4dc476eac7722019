// Gemini CLI: GEMINI.md (its default context file), `.gemini/settings.json` hooks.<Event>[] = { matcher?, hooks: [{ type:
// "command", command, timeout (ms) }] } for SessionStart, BeforeTool, AfterTool, AfterAgent, SessionEnd; input session_id, cwd,
// tool_name, tool_input, stop_hook_active (docs/agentsync-documentation.md, "Hook packs"). BeforeTool reads a deny
// but no context, so a radar warning comes with AfterTool's answer; AfterAgent's block sends the reason back as the
// next prompt.
import { claudeStyleInput, claudeStyleTool, shellWritesOf, toolInput } from './claudeStyle';
import { HOOK_TIMEOUT_S, packCommand, str, type HookEvent, type HookInput, type PackEntry, type Vendor } from './vendor';

const tools = claudeStyleTool(['run_shell_command']);

const entry = (name: string, event: HookEvent, timeoutMs: number): PackEntry => ({
  name,
  event,
  entry: { hooks: [{ type: 'command', command: packCommand(event, 'gemini'), timeout: timeoutMs }] },
});

export const gemini: Vendor = {
  id: 'gemini',
  name: 'Gemini CLI',
  instructionFiles: ['GEMINI.md'],
  startCommand: 'gemini',
  pack: {
    kind: 'json',
    file: '.gemini/settings.json',
    base: {},
    entries: [
      entry('SessionStart', 'session-start', HOOK_TIMEOUT_S['session-start'] * 1000),
      entry('BeforeTool', 'pre-tool-use', HOOK_TIMEOUT_S['pre-tool-use'] * 1000),
      entry('AfterTool', 'post-tool-use', HOOK_TIMEOUT_S['post-tool-use'] * 1000),
      entry('AfterAgent', 'stop', HOOK_TIMEOUT_S['stop'] * 1000),
      entry('SessionEnd', 'session-end', HOOK_TIMEOUT_S['session-end'] * 1000),
    ],
  },
  sessionEnv: [],
  beforeHooksRun: 'Gemini CLI: project hooks run only in a trusted folder (trust it when asked, or GEMINI_CLI_TRUST_WORKSPACE=true).',
  ...claudeStyleInput,
  context: (text: string) => ({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } }),
  preTool: {
    ...tools,
    // write_file and replace take file_path.
    writes: (input: HookInput) => {
      if (tools.shellCommand(input) !== null) return shellWritesOf(tools.shellCommand(input));
      if (!['write_file', 'replace'].includes(str(input, 'tool_name'))) return [];
      const file = toolInput(input).file_path;
      return typeof file === 'string' ? [file] : [];
    },
    warn: { when: 'after', output: (text: string) => ({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: text } }) },
    deny: (reason: string) => ({ decision: 'deny', reason }),
  },
  denyBeforeTool: { yes: 'BeforeTool' },
  // SessionEnd (Gemini CLI 0.61: fireSessionEndEvent): { session_id, cwd, reason: exit | clear | logout |
  // prompt_input_exit | other }; AfterAgent ends a turn.
  sessionEnd: { yes: 'SessionEnd' },
  blockStop: (reason: string) => ({ decision: 'block', reason }),
  allowStop: () => ({}),
  runByAnother: () => false,
};
