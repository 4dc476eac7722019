// What a receiver may do (docs/contract.md §6, "What a receiver may do"): the pre-tool hook of the agent holding a pass
// whose policy says `can_modify_files: false` (a read-only auditor) or `can_run_tools: false` refuses the tool with
// E013 PERMISSION_DENIED and why. AgentSync's own ways stay open, so a receiver can always report: its MCP tools,
// `agentsync …` in a shell, and a write into `.agentsync/requests/`. The rule is here, once; what differs by vendor (the
// tool's name, which tool is the shell and where its command is, which tools write which files) is each vendor's
// module's (vendors/*.ts, `preTool`). Node built-ins only (dist/hook.js).
import type { HookEvent, HookInput, Vendor } from './vendors/vendor';
import { hookView } from './hookReaders';

/**
 * Shell commands that only read (their first word, or first two for git), allowed to a read-only receiver: POSIX
 * commands, the same whichever vendor's shell tool runs them.
 */
export const READ_ONLY_SHELL = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'rg',
  'find',
  'pwd',
  'git status',
  'git diff',
  'git log',
  'git show',
];

interface HeldPass {
  handoff_id: string;
  claimed_by?: string | null;
  status: string;
  claimed_session?: { id?: string | null } | null;
  policy?: { can_modify_files?: boolean; can_run_tools?: boolean } | null;
}

/** One simple command (no chaining, pipes, redirection or substitution) whose words start as `prefix`. */
function isSimple(command: string, prefixes: readonly string[]): boolean {
  if (/[;&|<>`$()\n]/.test(command)) return false;
  return prefixes.some((p) => command === p || command.startsWith(`${p} `));
}

const ownTool = (name: string) => /^mcp__agentsync(__|_)/.test(name) || name.startsWith('agentsync_');
const ownShell = (command: string) => isSimple(command, ['agentsync', 'npx agentsync']);
const intoRequests = (files: readonly string[]) =>
  files.length > 0 && files.every((f) => /(^|[\\/])\.agentsync[\\/]requests[\\/][^\\/]+$/.test(f) && !f.includes('..'));

/** The passes `agent` holds (in this session when the claim recorded one) that limit it. */
function limitingPasses(store: Buffer, agent: string, session: string | null): HeldPass[] {
  let parsed: { handoffs?: unknown };
  try {
    parsed = JSON.parse(store.toString('utf8')) as { handoffs?: unknown };
  } catch {
    return [];
  }
  const records = Array.isArray(parsed.handoffs) ? (hookView('passPermissions', parsed.handoffs) as unknown as HeldPass[]) : [];
  return records.filter(
    (h) =>
      h.status === 'in_progress' &&
      h.claimed_by === agent &&
      (!h.claimed_session?.id || !session || h.claimed_session.id === session) &&
      (h.policy?.can_modify_files === false || h.policy?.can_run_tools === false),
  );
}

/** The vendor's denial of this tool call, or null when no held pass forbids it. */
export function permissionAnswer(
  event: HookEvent,
  vendor: Vendor,
  input: HookInput,
  agent: string,
  readStore: () => Buffer | null,
  session: string | null,
): object | null {
  const dialect = vendor.preTool;
  if (event !== 'pre-tool-use' || !dialect) return null;
  const store = readStore();
  if (!store) return null;
  const passes = limitingPasses(store, agent, session);
  if (!passes.length) return null;
  const name = dialect.tool(input);
  const command = dialect.shellCommand(input)?.trim() ?? null;
  const written = dialect.writes(input);
  if (ownTool(name) || (command !== null && ownShell(command)) || intoRequests(written)) return null;
  const what = command !== null ? `the shell command \`${command.slice(0, 120)}\`` : `the tool ${name || '(unnamed)'}`;
  const noTools = passes.find((h) => h.policy?.can_run_tools === false);
  if (noTools)
    return dialect.deny(
      `E013 PERMISSION_DENIED: ${noTools.handoff_id} was passed to you with can_run_tools: false, so ${what} is refused. ` +
        'Only AgentSync itself is open to you: its MCP tools, `agentsync …` in a shell, or a request file in .agentsync/requests/. ' +
        'Report what you found with completeHandoff (or `agentsync return`).',
    );
  const readOnly = passes[0];
  const shellWrites = command !== null && !isSimple(command, READ_ONLY_SHELL);
  if (written.length === 0 && !shellWrites) return null;
  return dialect.deny(
    `E013 PERMISSION_DENIED: ${readOnly.handoff_id} was passed to you with can_modify_files: false (a read-only pass), so ` +
      `${what} is refused: it may change files. Read and report instead; \`agentsync …\` and read-only commands ` +
      `(${READ_ONLY_SHELL.join(', ')}) stay open.`,
  );
}
