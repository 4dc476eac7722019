// What AgentSync knows about one agent vendor's hooks (docs/agentsync-documentation.md, "Hook packs"): the files it
// reads, the pack written for it, the JSON it sends a hook and what it reads back. One module per vendor in this
// folder implements `Vendor`; every member is required, so a vendor added without one of them does not compile.
// Node built-ins only: dist/hook.js bundles these modules and runs before every tool call.
import { guardedHookCommand } from '../missingCommand';

/** The events an AgentSync hook handles, whatever each vendor calls them. */
export const HOOK_EVENTS = ['session-start', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * The time limit each pack gives its hook (seconds), the same for every vendor whose pack takes one; the hook gives its
 * network step this minus a margin (hookDeadline.ts), so it ends, and ends its git children, before its agent kills it.
 */
export const HOOK_TIMEOUT_S: Readonly<Record<HookEvent, number>> = {
  'session-start': 30,
  'pre-tool-use': 10,
  'post-tool-use': 10,
  stop: 30,
  // A session-end hook only answers at once (hookMain.ts hands the work to a process of its own), so a vendor's short
  // cap (Claude Code gives SessionEnd 1.5 s unless told otherwise; Codex 3 s) never cuts it.
  'session-end': 3,
};

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** A vendor's hook input as parsed from standard input (an object; anything else is read as `{}`). */
export type HookInput = Record<string, unknown>;

/** One AgentSync entry of a JSON hooks file: added under `hooks.<name>`, recognised later by its command. */
export interface PackEntry {
  name: string;
  event: HookEvent;
  entry: JsonObject;
}

/** A JSON hooks file merged into the user's own (Claude, Codex, Cursor, Copilot, Gemini). */
export interface JsonPack {
  kind: 'json';
  file: string;
  /** Top-level keys the format requires (Cursor and Copilot: version 1). */
  base: JsonObject;
  entries: readonly PackEntry[];
}

/** A file AgentSync owns outright (opencode's plugin): written whole, rewritten when its text changes. */
export interface FilePack {
  kind: 'file';
  file: string;
  /** The file's text: templates/<template>. */
  template: 'opencode-plugin.js';
  /** The events the file runs `agentsync hook` for. */
  events: readonly HookEvent[];
}

/**
 * What a vendor can or cannot do, stated once in its module: `yes` names the vendor's own event that does it, `no`
 * says why it cannot (shown to users in refusals and docs).
 */
export type Capability = { yes: string } | { no: string };

export const can = (c: Capability): c is { yes: string } => 'yes' in c;

/** What the vendor's pre-tool hook sees and reads back; null for a vendor with no pre-tool hook. */
export interface PreToolDialect {
  /** The tool's name as the vendor gives it (`Edit`, `apply_patch`, `run_shell_command`, …). */
  tool(input: HookInput): string;
  /** The command line when the tool is the vendor's shell tool (Bash, exec_command, bash, run_shell_command), else null. */
  shellCommand(input: HookInput): string | null;
  /** Paths (as the tool gives them, absolute or relative to the folder) the tool call is about to write; [] for any other tool. */
  writes(input: HookInput): string[];
  /**
   * How a warning reaches the model while the tool goes ahead: in the pre-tool hook's answer, or, for a vendor that
   * reads no context from its pre-tool hook (Gemini CLI), in the post-tool hook's answer, beside the tool's result.
   */
  warn: { when: 'before' | 'after'; output(text: string): object };
  /** The tool is refused and `reason` reaches the model. */
  deny(reason: string): object;
}

export interface Vendor {
  /** The id used in hook commands (`--format`) and, by default, as the agent id. */
  id: string;
  name: string;
  /** Instruction files this vendor reads on its own; init writes the AgentSync section into each. */
  instructionFiles: readonly string[];
  /** The command that starts the vendor's agent in the current folder (printed by `agentsync worktree add`). */
  startCommand: string;
  pack: JsonPack | FilePack;
  /** What must be trusted or enabled before the vendor runs a project's hooks (printed by init --hooks). */
  beforeHooksRun: string;
  /** The folder the agent works in, as the input says it. */
  folder(input: HookInput): string | null;
  sessionId(input: HookInput): string;
  /**
   * The environment variables the vendor sets, for its hooks and for the commands its shell tool runs, to the agent's
   * session id (docs/contract.md §4, "Who may act"); [] for a vendor that sets none (the hook input's id is then all).
   */
  sessionEnv: readonly string[];
  /** The vendor's own "this stop follows a blocked stop" flag. */
  loopActive(input: HookInput): boolean;
  /** Session start: `text` goes into the agent's context. */
  context(text: string): object;
  preTool: PreToolDialect | null;
  /**
   * Whether its hooks can refuse a tool before it runs: what a pass limited by can_modify_files / can_run_tools
   * needs (hooks/passPermissions.ts); a receiver whose vendor cannot is refused such a pass at claim with E013.
   */
  denyBeforeTool: Capability;
  /**
   * Whether it runs a hook when a session ends (not after each turn: Claude Code's Stop is no end): the pack's
   * session-end entry, which hands back the passes the session held with E011. Without one only the lease's
   * expiry (E010) tells that a receiver is gone.
   */
  sessionEnd: Capability;
  /** Stop blocked: the agent goes on with `reason` as its next instruction. */
  blockStop(reason: string): object;
  /** Stop let through. */
  allowStop(): object;
  /**
   * True when this pack's hook was run by another vendor that reads this vendor's files (Copilot CLI runs
   * `.claude/settings.json`): the hook then does nothing, and the other vendor's own pack acts once, as itself.
   */
  runByAnother(env: NodeJS.ProcessEnv, input: HookInput): boolean;
}

/** The AgentSync command a vendor's hook runs for `event`. */
export function hookCommand(event: HookEvent, vendor: string): string {
  return `agentsync hook ${event} --agent ${vendor} --format ${vendor}`;
}

/** The command line a pack entry holds: `hookCommand`, saying what to do when `agentsync` is not on the agent's PATH. */
export function packCommand(event: HookEvent, vendor: string, shell: 'posix' | 'powershell' = 'posix'): string {
  return guardedHookCommand(hookCommand(event, vendor), shell);
}

export function str(input: HookInput, key: string): string {
  const v = input[key];
  return typeof v === 'string' ? v : '';
}
