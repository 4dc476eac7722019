// Claude Code: CLAUDE.md, `.claude/settings.json` (docs/agentsync-documentation.md, "Hook packs"). Copilot CLI runs
// this file too, with Claude-shaped input, so the pack steps aside there and Copilot's own pack acts.
import { claudeStyleEntries, claudeStyleInput, claudeStyleOutput, toolInput } from './claudeStyle';
import { str, type HookInput, type Vendor } from './vendor';
import { shellWrites } from '../shellWrites';

export const claude: Vendor = {
  id: 'claude',
  name: 'Claude Code',
  instructionFiles: ['CLAUDE.md'],
  startCommand: 'claude',
  pack: { kind: 'json', file: '.claude/settings.json', base: {}, entries: claudeStyleEntries('claude') },
  sessionEnv: ['CLAUDE_CODE_SESSION_ID'],
  beforeHooksRun: 'Claude Code: trust the folder when it asks (interactive sessions); `claude -p` runs project hooks as they are.',
  ...claudeStyleInput,
  context: claudeStyleOutput.context,
  preTool: {
    // Write, Edit, MultiEdit: file_path; NotebookEdit: notebook_path; Bash: command (shellWrites.ts).
    writes: (input: HookInput) => {
      if (str(input, 'tool_name') === 'Bash') return shellWrites(toolInput(input).command);
      if (!['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(str(input, 'tool_name'))) return [];
      const args = toolInput(input);
      const file = args.file_path ?? args.notebook_path;
      return typeof file === 'string' ? [file] : [];
    },
    warn: { when: 'before', output: claudeStyleOutput.warn },
    deny: claudeStyleOutput.deny,
  },
  blockStop: claudeStyleOutput.blockStop,
  allowStop: claudeStyleOutput.allowStop,
  // Copilot CLI sets COPILOT_CLI=1 for every hook it runs; Claude Code sets CLAUDE_CODE_SESSION_ID to the session its
  // hooks are about. So a Claude-pack run under COPILOT_CLI whose session is not Claude Code's own is Copilot's.
  runByAnother: (env, input) => Boolean(env.COPILOT_CLI) && env.CLAUDE_CODE_SESSION_ID !== str(input, 'session_id'),
};
