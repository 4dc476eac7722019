// The hook dialect Claude Code published and Codex adopted (docs/agentsync-documentation.md, "Hook packs"): a
// `.json` file of hooks.<Event>[] = { matcher?, hooks: [{ type: "command", command, timeout }] }, snake_case input
// (session_id, cwd, stop_hook_active, tool_name, tool_input) and hookSpecificOutput answers.
import { HOOK_TIMEOUT_S, packCommand, str, type HookEvent, type HookInput, type PackEntry } from './vendor';
import { shellWrites } from '../shellWrites';

/** The pack's entries; SessionEnd only for a vendor that has it (its module's `sessionEnd`). */
export function claudeStyleEntries(vendor: string, sessionEnd: boolean): PackEntry[] {
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
    ...(sessionEnd ? [entry('SessionEnd', 'session-end', HOOK_TIMEOUT_S['session-end'])] : []),
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

/** `tool_name`, and the shell command when it is one of `shells` (its `command`, or Codex's `cmd`). */
export function claudeStyleTool(shells: readonly string[]): {
  tool(input: HookInput): string;
  shellCommand(input: HookInput): string | null;
} {
  return {
    tool: (input) => str(input, 'tool_name'),
    shellCommand: (input) => {
      if (!shells.includes(str(input, 'tool_name'))) return null;
      const args = toolInput(input);
      const command = args.command ?? args.cmd;
      return typeof command === 'string' ? command : null;
    },
  };
}

/** The files a shell command writes (shellWrites.ts), for a dialect's `writes`. */
export const shellWritesOf = (command: string | null): string[] => (command === null ? [] : shellWrites(command));
