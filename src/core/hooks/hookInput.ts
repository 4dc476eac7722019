// What a hook run needs before anything else loads (docs/agentsync-documentation.md, "Hook packs"): its arguments
// and the workspace it is about. Node built-ins only: the post-tool-use fast path
// (dist/hook.js) runs this after every tool call of an agent.

export const HOOK_EVENTS = ['session-start', 'post-tool-use', 'stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const HOOK_FORMATS = ['claude', 'codex', 'cursor', 'copilot'] as const;
export type HookFormat = (typeof HOOK_FORMATS)[number];

export interface HookArgs {
  event: HookEvent;
  format: HookFormat;
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
  const chosen = (env.AGENTSYNC_AGENT?.trim() || agent || format || 'claude').toLowerCase();
  if (!/^[a-z0-9][a-z0-9_.-]{0,63}$/.test(chosen))
    return { error: `agent id ${JSON.stringify(chosen)} is not a valid id (lowercase letters, digits, _ . -)` };
  const fmt = format ?? ((HOOK_FORMATS as readonly string[]).includes(chosen) ? chosen : 'claude');
  if (!(HOOK_FORMATS as readonly string[]).includes(fmt))
    return { error: `--format must be one of ${HOOK_FORMATS.join(', ')} (got ${fmt})` };
  return { event: event as HookEvent, format: fmt as HookFormat, agent: chosen, dir };
}

/** The folder the vendor says the agent works in: Claude/Codex/Copilot `cwd`, Cursor `workspace_roots[0]`. */
export function inputFolder(input: Record<string, unknown>): string | null {
  const roots = input.workspace_roots;
  if (Array.isArray(roots) && typeof roots[0] === 'string') return roots[0];
  return typeof input.cwd === 'string' ? input.cwd : null;
}

/** The workspace a hook is about: the one rule of core/disk/workspaceRoot.ts. */
export { findWorkspaceRoot } from '../disk/workspaceRoot';
