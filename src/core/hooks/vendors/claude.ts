// Claude Code: CLAUDE.md, `.claude/settings.json` (docs/agentsync-documentation.md, "Hook packs"). Copilot CLI runs
// this file too, with Claude-shaped input, so the pack steps aside there and Copilot's own pack acts.
import { claudeStyleEntries, claudeStyleInput, claudeStyleOutput, claudeStyleTool, shellWritesOf, toolInput } from './claudeStyle';
import { str, type HookInput, type Vendor } from './vendor';

const tools = claudeStyleTool(['Bash']);

export const claude: Vendor = {
  id: 'claude',
  name: 'Claude Code',
  instructionFiles: ['CLAUDE.md'],
  startCommand: 'claude',
  pack: { kind: 'json', file: '.claude/settings.json', base: {}, entries: claudeStyleEntries('claude', true) },
  sessionEnv: ['CLAUDE_CODE_SESSION_ID'],
  beforeHooksRun: 'Claude Code: trust the folder when it asks (interactive sessions); `claude -p` runs project hooks as they are.',
  ...claudeStyleInput,
  context: claudeStyleOutput.context,
  preTool: {
    ...tools,
    // Write, Edit, MultiEdit: file_path; NotebookEdit: notebook_path; Bash: command (shellWrites.ts).
    writes: (input: HookInput) => {
      if (tools.shellCommand(input) !== null) return shellWritesOf(tools.shellCommand(input));
      if (!['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(str(input, 'tool_name'))) return [];
      const args = toolInput(input);
      const file = args.file_path ?? args.notebook_path;
      return typeof file === 'string' ? [file] : [];
    },
    warn: { when: 'before', output: claudeStyleOutput.warn },
    deny: claudeStyleOutput.deny,
  },
  denyBeforeTool: { yes: 'PreToolUse' },
  // SessionEnd: { session_id, cwd, reason: clear | logout | prompt_input_exit | other }, once per session (`claude -p`
  // included); Stop fires after every turn and is no end. Its hooks get 1.5 s unless CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS says more.
  sessionEnd: { yes: 'SessionEnd' },
  blockStop: claudeStyleOutput.blockStop,
  allowStop: claudeStyleOutput.allowStop,
  // Copilot CLI sets COPILOT_CLI=1 for every hook it runs; Claude Code sets CLAUDE_CODE_SESSION_ID to the session its
  // hooks are about. So a Claude-pack run under COPILOT_CLI whose session is not Claude Code's own is Copilot's.
  runByAnother: (env, input) => Boolean(env.COPILOT_CLI) && env.CLAUDE_CODE_SESSION_ID !== str(input, 'session_id'),
};
