// GitHub Copilot (CLI and cloud agent): .github/copilot-instructions.md, `.github/hooks/agentsync.json`
// { version: 1, hooks: { sessionStart|preToolUse|postToolUse|agentStop|sessionEnd: [{ type, bash, powershell, timeoutSec }] } },
// camelCase input (sessionId, cwd, toolName, toolArgs: an object, or a JSON string in older versions)
// (docs/agentsync-documentation.md, "Hook packs").
import { HOOK_TIMEOUT_S, packCommand, str, type HookEvent, type HookInput, type PackEntry, type Vendor } from './vendor';
import { shellWritesOf } from './claudeStyle';

const entry = (name: string, event: HookEvent, timeoutSec: number): PackEntry => ({
  name,
  event,
  entry: { type: 'command', bash: packCommand(event, 'copilot'), powershell: packCommand(event, 'copilot', 'powershell'), timeoutSec },
});

function toolArgs(input: HookInput): Record<string, unknown> {
  let v = input.toolArgs;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return {};
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function shellCommand(input: HookInput): string | null {
  if (str(input, 'toolName') !== 'bash') return null;
  const command = toolArgs(input).command;
  return typeof command === 'string' ? command : null;
}

export const copilot: Vendor = {
  id: 'copilot',
  name: 'GitHub Copilot',
  instructionFiles: ['.github/copilot-instructions.md', 'AGENTS.md'],
  startCommand: 'copilot',
  pack: {
    kind: 'json',
    file: '.github/hooks/agentsync.json',
    base: { version: 1 },
    entries: [
      entry('sessionStart', 'session-start', HOOK_TIMEOUT_S['session-start']),
      entry('preToolUse', 'pre-tool-use', HOOK_TIMEOUT_S['pre-tool-use']),
      entry('postToolUse', 'post-tool-use', HOOK_TIMEOUT_S['post-tool-use']),
      entry('agentStop', 'stop', HOOK_TIMEOUT_S['stop']),
      entry('sessionEnd', 'session-end', HOOK_TIMEOUT_S['session-end']),
    ],
  },
  sessionEnv: [],
  beforeHooksRun:
    'Copilot CLI: repository hooks run only in a trusted folder (confirm the folder-trust prompt, or `copilot --trust-folder` in prompt mode).',
  folder: (input: HookInput) => str(input, 'cwd') || null,
  sessionId: (input: HookInput) => str(input, 'sessionId') || str(input, 'session_id'),
  loopActive: (input: HookInput) => input.stop_hook_active === true || input.stopHookActive === true,
  context: (text: string) => ({ additionalContext: text }),
  preTool: {
    tool: (input: HookInput) => str(input, 'toolName'),
    shellCommand,
    // create and edit take `path`.
    writes: (input: HookInput) => {
      if (shellCommand(input) !== null) return shellWritesOf(shellCommand(input));
      if (!['create', 'edit', 'str_replace_editor', 'write'].includes(str(input, 'toolName'))) return [];
      const file = toolArgs(input).path;
      return typeof file === 'string' ? [file] : [];
    },
    warn: { when: 'before', output: (text: string) => ({ additionalContext: text }) },
    deny: (reason: string) => ({ permissionDecision: 'deny', permissionDecisionReason: reason }),
  },
  denyBeforeTool: { yes: 'preToolUse' },
  // sessionEnd: { timestamp, cwd, reason: complete | error | abort | timeout | user_exit } and the session's id; agentStop
  // ends a turn, not the session.
  sessionEnd: { yes: 'sessionEnd' },
  blockStop: (reason: string) => ({ decision: 'block', reason }),
  allowStop: () => ({}),
  runByAnother: () => false,
};
