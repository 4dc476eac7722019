// Codex: AGENTS.md, `.codex/hooks.json` in Claude Code's dialect (docs/agentsync-documentation.md, "Hook packs"). Its
// file-writing tool is apply_patch, whose input is a patch naming each file it adds, updates, deletes or moves to.
import { claudeStyleEntries, claudeStyleInput, claudeStyleOutput, claudeStyleTool, shellWritesOf, toolInput } from './claudeStyle';
import { can, str, type Capability, type HookInput, type Vendor } from './vendor';

// Its hooks name the shell tool Bash (Claude Code's name); exec_command and shell are its own names for it.
const tools = claudeStyleTool(['Bash', 'exec_command', 'shell']);

/**
 * The files a Codex patch touches (`*** Add File: p`, `*** Update File: p`, `*** Delete File: p`, `*** Move to: p`).
 * Codex trims each line before reading it, so an indented header still applies, and is read here too.
 */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trim());
    if (m && m[1].trim()) files.push(m[1].trim());
  }
  return files;
}

/**
 * Codex 0.169 runs SessionEnd hooks (capped at 3 s) when a session ends, `codex exec` included, with the same input as
 * its other hooks (session_id, cwd): test/agents/readOnlyPass.test.ts sees it hand a pass back.
 */
const sessionEnd: Capability = { yes: 'SessionEnd' };

export const codex: Vendor = {
  id: 'codex',
  name: 'Codex',
  instructionFiles: ['AGENTS.md'],
  startCommand: 'codex',
  pack: { kind: 'json', file: '.codex/hooks.json', base: {}, entries: claudeStyleEntries('codex', can(sessionEnd)) },
  // Codex 0.169 sets CODEX_THREAD_ID (and CODEX_SESSION_ID, the same id) for its shell tool's commands, equal to its
  // hooks' session_id; hooks get only the input's session_id (test/agents/worktreeSessions.test.ts checks it).
  sessionEnv: ['CODEX_THREAD_ID'],
  beforeHooksRun:
    'Codex: hooks are on by default ([features] hooks = true; the old codex_hooks key is deprecated). Trust the project ' +
    '(the trust prompt, or [projects."<path>"] trust_level = "trusted" in ~/.codex/config.toml) and approve the hooks ' +
    'with /hooks; until both are done, .codex/hooks.json is ignored without a word.',
  ...claudeStyleInput,
  context: claudeStyleOutput.context,
  preTool: {
    ...tools,
    writes: (input: HookInput) => {
      if (tools.shellCommand(input) !== null) return shellWritesOf(tools.shellCommand(input));
      if (str(input, 'tool_name') !== 'apply_patch') return [];
      const args = input.tool_input;
      const text =
        typeof args === 'string'
          ? args
          : Object.values(toolInput(input))
              .filter((v) => typeof v === 'string')
              .join('\n');
      return patchFiles(text);
    },
    warn: { when: 'before', output: claudeStyleOutput.warn },
    deny: claudeStyleOutput.deny,
  },
  denyBeforeTool: { yes: 'PreToolUse' },
  sessionEnd,
  blockStop: claudeStyleOutput.blockStop,
  allowStop: claudeStyleOutput.allowStop,
  runByAnother: () => false,
};
