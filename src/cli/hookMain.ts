// dist/hook.js: `agentsync hook …` without loading the CLI (docs/agentsync-documentation.md, "Hook packs").
// pre-tool-use and post-tool-use run around every tool call of an agent, so they answer from here, with Node
// built-ins only: the radar (a tool about to write a file another agent's live claim lists) and, when no lease of
// the agent is due for renewal, post-tool-use's nothing to do. Anything else is handed to the full CLI (dist/cli.js).
// A pack run by another vendor than its own (Copilot CLI running .claude/settings.json) does nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHookArgs, parseHookInput, type HookArgs } from '../core/hooks/hookInput';
import { leasesDue } from '../core/hooks/leaseRenewal';
import { hookNetworkDeadline } from '../core/hooks/hookDeadline';
import { NETWORK_DEADLINE_ENV } from '../core/domain/networkDeadline';
import { radarAnswer } from '../core/hooks/preToolHook';
import { withdrawalAnswer } from '../core/hooks/withdrawNotices';
import { permissionAnswer } from '../core/hooks/passPermissions';
import { readOnce, StoreReader } from '../core/store/storeReader';
import { findWorkspaceRoot } from '../core/store/workspaceRoot';
import type { HookInput } from '../core/hooks/vendors/vendor';
import { worktreeRelative } from '../core/git/worktreePaths';
import { rememberWorktrees } from '../core/git/worktreeLocation';
import type { AgentSession } from '../core/domain/agentSession';
import { hookSession } from './hookSession';
import type { CliIo } from './cliContext';
import { outputFailed, safeWrite, writeStdoutOnce } from './safeOutput';
import { detachSessionEnd, DETACHED_NETWORK_MS, isDetachedRun } from './hookDetach';

/**
 * The hook's input. Read from file descriptor 0, never through process.stdin, whose first use loads Node's streams:
 * a cost paid around every tool call. A terminal is a character device, as /dev/null is: neither carries an input.
 */
function readStdinText(): string {
  try {
    if (fs.fstatSync(0).isCharacterDevice()) return '';
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** The workspace the hook is about: --dir or the current folder, else the folder the vendor's input names. */
function workspaceOf(args: HookArgs, input: HookInput): string | null {
  const folder = args.vendor.folder(input);
  return findWorkspaceRoot(args.dir ?? process.cwd()) ?? (folder ? findWorkspaceRoot(folder) : null);
}

function leasesAreDue(store: Buffer | null, agent: string, session: () => AgentSession): boolean {
  try {
    return store !== null && leasesDue(store, agent, Date.now(), session()).length > 0;
  } catch {
    return false;
  }
}

/**
 * Answers a tool hook from here when it can (`done`, with the answer to print, if any). post-tool-use goes on to the
 * full CLI only to renew a due lease; the CLI's hook verb then gives the radar's answer itself. The store is read
 * through the store's reader, once: the radar after a tool (Gemini CLI) and the lease check share the read, which is
 * of the hooks' index while it is fresh (src/core/store/hookIndex.ts), of the store otherwise.
 */
export function answeredHere(
  args: HookArgs,
  input: HookInput,
  storeOf: (root: string) => StoreReader = (root) => new StoreReader(root),
): { done: boolean; answer: object | null } {
  if (args.event !== 'pre-tool-use' && args.event !== 'post-tool-use') return { done: false, answer: null };
  const root = workspaceOf(args, input);
  if (!root) return { done: true, answer: null };
  const reader = storeOf(root);
  const readStore = readOnce(reader, true);
  let answer: object | null = null;
  let found: AgentSession | null = null;
  const session = () => (found ??= hookSession(args.vendor, input, args.agent, root));
  // A held pass that limits its receiver (can_modify_files / can_run_tools false) refuses first (passPermissions.ts).
  const denied = permissionAnswer(args.event, args.vendor, input, args.agent, readStore, args.vendor.sessionId(input) || null);
  if (denied) return { done: true, answer: denied };
  try {
    answer = radarAnswer(args.event, args.vendor, input, args.agent, root, Date.now(), readStore, { session, relative: worktreeRelative });
  } catch (e) {
    safeWrite(process.stderr, `agentsync hook ${args.event}: the conflict radar failed: ${(e as Error).message}\n`);
  }
  // A withdrawn pass is told to its receiver here when the radar has nothing to say (withdrawNotices.ts); a hook that
  // goes on to the full CLI tells it there instead, so it is marked told only by the process that answers.
  const told = (): object | null => {
    try {
      return withdrawalAnswer(args.event, args.vendor, args.agent, readStore, session, reader.home);
    } catch (e) {
      safeWrite(process.stderr, `agentsync hook ${args.event}: telling a withdrawn pass failed: ${(e as Error).message}\n`);
      return null;
    }
  };
  if (args.event === 'pre-tool-use') return { done: true, answer: answer ?? told() };
  const done = !leasesAreDue(readStore(), args.agent, session);
  return { done, answer: done ? (answer ?? told()) : answer };
}

export function main(): void {
  // One call, then exit: the workspace, the store's reader and the session each find the worktree; git's files are read once.
  rememberWorktrees();
  const argv = process.argv.slice(2);
  const args = parseHookArgs(argv, process.env);
  // The network step ends before the agent's time limit, counted from this process's start (hookDeadline.ts).
  if (!('error' in args)) process.env[NETWORK_DEADLINE_ENV] = String(hookNetworkDeadline(args.event, Date.now() - process.uptime() * 1000));
  if (isDetachedRun(process.env)) process.env[NETWORK_DEADLINE_ENV] = String(Date.now() + DETACHED_NETWORK_MS);
  const inputText = readStdinText();
  if (!('error' in args)) {
    const input = parseHookInput(inputText);
    if (args.vendor.runByAnother(process.env, input)) return;
    // session-end writes the store after its agent has gone: in a detached process (hookDetach.ts).
    if (detachSessionEnd(args.event, inputText)) return;
    const here = answeredHere(args, input);
    if (here.done) {
      // Through the CLI's rule: an agent that closed the pipe ends the hook quietly, a full disk is said on stderr.
      if (here.answer) writeStdoutOnce(JSON.stringify(here.answer) + '\n');
      return;
    }
  }
  // The full CLI: dist/cli.js beside this bundle, or main.js when running from the compiled sources (tests).
  const cli = fs.existsSync(path.join(__dirname, 'cli.js')) ? path.join(__dirname, 'cli.js') : path.join(__dirname, 'main.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at run time from a computed path so esbuild keeps the CLI out of this bundle
  const { runCli } = require(cli) as typeof import('./main');
  const io: CliIo = {
    out: (t) => safeWrite(process.stdout, t.endsWith('\n') ? t : t + '\n'),
    err: (t) => safeWrite(process.stderr, t.endsWith('\n') ? t : t + '\n'),
    readStdin: () => Promise.resolve(inputText),
  };
  runCli(argv, io).then(
    (code) => (process.exitCode = outputFailed() ? 1 : code),
    (e) => {
      safeWrite(process.stderr, `agentsync hook: ${(e as Error).message}\n`);
      process.exitCode = 0;
    },
  );
}
