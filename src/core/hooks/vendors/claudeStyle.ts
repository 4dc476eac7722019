// The hook dialect Claude Code published and Codex adopted (docs/agentsync-documentation.md, "Hook packs"): a
// `.json` file of hooks.<Event>[] = { matcher?, hooks: [{ type: "command", command, timeout }] }, snake_case input
// (session_id, cwd, stop_hook_active, tool_name, tool_input) and hookSpecificOutput answers.
import { HOOK_TIMEOUT_S, packCommand, str, type HookEvent, type HookInput, type PackEntry } from './vendor';

export function claudeStyleEntries(vendor: string): PackEntry[] {
  const entry = (name: string, event: HookEvent, timeout: number): PackEntry => ({
    name,
    event,
    entry: { hooks: [{ type: 'command', command: packCommand(event, vendor), timeout }] },
  });
  return [
    entry('SessionStart', 'session-start', HOOK_TIMEOUT_S['session-start']),
    entry('PreToolUse', 'pre-tool-use', HOOK_TIMEOUT_S['pre-tool-use']),
    entry('PostToolUse', 'post-tool-use', HOOK_TIMEOUT_S['post-tool-use']),
    entry('Stop', 'stop', HOOK_TIMEOUT_S['stop']),
  ];
}

export const claudeStyleInput = {
  folder: (input: HookInput): string | null => str(input, 'cwd') || null,
  sessionId: (input: HookInput): string => str(input, 'session_id'),
  loopActive: (input: HookInput): boolean => input.stop_hook_active === true,
};

export const claudeStyleOutput = {
  context: (text: string): object => ({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } }),
  warn: (text: string): object => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: text } }),
  deny: (reason: string): object => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  }),
  blockStop: (reason: string): object => ({ decision: 'block', reason }),
  allowStop: (): object => ({}),
};

/** The object a tool's input is (`tool_input`), or {}. */
export function toolInput(input: HookInput): Record<string, unknown> {
  const v = input.tool_input;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
