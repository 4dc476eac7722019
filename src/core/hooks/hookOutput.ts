// What each vendor reads back from a hook (docs/agentsync-documentation.md, "Hook packs"; recorded inputs and the
// sources in test/fixtures/hooks/): context injected at session start, and a stop that is blocked or let through.
import type { HookFormat } from './hookInput';

/** Session start: the text goes into the agent's context. */
export function contextOutput(format: HookFormat, text: string): object {
  switch (format) {
    case 'claude':
    case 'codex':
      return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
    case 'cursor':
      return { additional_context: text };
    case 'copilot':
      return { additionalContext: text };
  }
}

/** Stop blocked: the agent goes on with `reason` as its next instruction. */
export function blockStopOutput(format: HookFormat, reason: string): object {
  return format === 'cursor' ? { followup_message: reason } : { decision: 'block', reason };
}

/** Stop allowed: an empty object is "no decision" in every format. */
export const ALLOW_STOP_OUTPUT = {};

/** The vendor's own "this stop already follows a blocked stop" flag: Claude/Codex (and Copilot's VS Code dialect) stop_hook_active, Cursor loop_count. */
export function stopLoopActive(format: HookFormat, input: Record<string, unknown>): boolean {
  if (input.stop_hook_active === true || input.stopHookActive === true) return true;
  return format === 'cursor' && typeof input.loop_count === 'number' && input.loop_count > 0;
}

/** The vendor's session id: Claude/Codex session_id, Cursor conversation_id, Copilot sessionId. */
export function sessionIdOf(input: Record<string, unknown>): string {
  for (const k of ['session_id', 'sessionId', 'conversation_id']) if (typeof input[k] === 'string') return input[k];
  return '';
}
