// What a hook run needs before anything else loads (docs/agentsync-documentation.md, "Hook packs"): its arguments
// and the vendor's input (the workspace it is about: src/core/store/workspaceRoot.ts). Node built-ins only: the pre-
// and post-tool-use fast paths (dist/hook.js) run this around every tool call of an agent.

import { VENDOR_IDS, vendorOf } from './vendors';
import { HOOK_EVENTS, type HookEvent, type HookInput, type Vendor } from './vendors/vendor';

export { HOOK_EVENTS, type HookEvent };

export interface HookArgs {
  event: HookEvent;
  /** The vendor whose JSON comes in and goes out (`--format`). */
  vendor: Vendor;
  agent: string;
  dir: string | null;
}

/** Parses `[--dir D] hook <event> [--agent A] [--format F]`, or says what is wrong with it. */
export function parseHookArgs(argv: readonly string[], env: NodeJS.ProcessEnv): HookArgs | { error: string } {
  let event: string | null = null;
  let agent: string | null = null;
  let format: string | null = null;
  let dir: string | null = null;
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--dir' || a === '-C') dir = value();
      else if (a === '--agent') agent = value();
      else if (a === '--format') format = value();
      else if (a === '--json') continue;
      else if (a.startsWith('--')) return { error: `unknown option ${a}` };
      else words.push(a);
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
  if (words[0] === 'hook') words.shift();
  event = words[0] ?? null;
  if (words.length !== 1 || !(HOOK_EVENTS as readonly string[]).includes(event)) {
    return { error: `expected one event: ${HOOK_EVENTS.join(', ')} (got ${words.join(' ') || 'none'})` };
  }
  // The agent baked into the vendor's hook command, unless the environment names another (AGENTSYNC_AGENT).
  if (format === null && agent === null)
    return { error: `--format <vendor> is required: one of ${VENDOR_IDS.join(', ')} (the hook packs pass it)` };
  const chosen = (env.AGENTSYNC_AGENT?.trim() || agent || format || '').toLowerCase();
  if (!/^[a-z0-9][a-z0-9_.-]{0,63}$/.test(chosen))
    return { error: `agent id ${JSON.stringify(chosen)} is not a valid id (lowercase letters, digits, _ . -)` };
  // The format is never guessed: without --format, the agent named must itself be a vendor.
  const fmt = format ?? agent!;
  const vendor = vendorOf(fmt);
  if (!vendor) return { error: `--format must be one of ${VENDOR_IDS.join(', ')} (got ${fmt})` };
  return { event: event as HookEvent, vendor, agent: chosen, dir };
}

/** The vendor's hook input: a JSON object on standard input, or {} for anything else. */
export function parseHookInput(text: string): HookInput {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as HookInput) : {};
  } catch {
    return {};
  }
}
