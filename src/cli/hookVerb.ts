// `agentsync hook <event>`: what the agents' own hooks run (docs/agentsync-documentation.md, "Hook packs").
// session-start starts the agent's session and puts the briefing into its context; pre-tool-use warns (or denies)
// before a write to a file another agent's live claim lists (the conflict radar); post-tool-use renews its leases
// when they are past half their time; stop blocks once while it holds claimed work, under requireHandoffOnEndSession;
// session-end (where the vendor has one) hands the passes its session held back to their origins with E011.
// Each vendor's JSON, in and out, is its module's in src/core/hooks/vendors/.
// A hook never runs a configured command (build, test, deploy), and a failure never stops the agent: it is reported
// on stderr and the hook exits 0.
import { loadConfig } from '../core/workspace/configLoader';
import { HOOK_EVENTS, parseHookArgs, parseHookInput, type HookArgs } from '../core/hooks/hookInput';
import { readOnce } from '../core/store/storeReader';
import { findWorkspaceRoot } from '../core/store/workspaceRoot';
import { radarAnswer } from '../core/hooks/preToolHook';
import { withdrawalAnswer, withdrawalText, type WithdrawalNotice } from '../core/hooks/withdrawNotices';
import { hookSession } from './hookSession';
import { worktreeRelative } from '../core/git/worktreePaths';
import type { AgentSession } from '../core/domain/agentSession';
import { VENDOR_IDS } from '../core/hooks/vendors';
import type { HookInput } from '../core/hooks/vendors/vendor';
import { leasesDue } from '../core/hooks/leaseRenewal';
import { endRemoteGits } from '../core/git/gitRemote';
import { networkDeadline } from '../core/domain/networkDeadline';
import { decideStop, heldWork, stopInstruction, stopMarkerFile } from '../core/hooks/stopGate';
import { briefingText, type RevokedWrite } from '../core/requests/sessions/briefingText';
import { CliContext, processIo, UsageError } from './cliContext';
import { oneLine } from './terminalText';
import type { Handoff } from '../core/domain/handoffSchema';
import type { SessionBriefing } from '../core/requests/sessions/sessionBriefing';
import type { Verb } from './handoffVerbs';
import { sessionEnd } from './hookSessionEnd';

/** The agent's session id as a request parameter, when the hook knows one (docs/contract.md §4). */
function sessionParam(session: AgentSession): { session?: string } {
  return session.id ? { session: session.id } : {};
}

async function sessionStart(ctx: CliContext, args: HookArgs, session: AgentSession): Promise<void> {
  const r = await ctx.dispatcher.dispatch({
    action: 'startSession',
    agent: args.agent,
    goal: `Session started (${args.vendor.id} hook)`,
    ...sessionParam(session),
  });
  const withdrawn = (r.data as { withdrawn?: WithdrawalNotice[] } | undefined)?.withdrawn ?? [];
  const text = r.ok
    ? briefingText((r.data as { briefing: SessionBriefing }).briefing, revokedWrites(r.data?.sync_revoked)) +
      (withdrawn.length ? `\n\n${withdrawalText(withdrawn)}` : '')
    : `AgentSync: startSession was refused (${r.reason}): ${r.message}. Read AGENTS.md for how to use AgentSync here.`;
  ctx.io.out(JSON.stringify(args.vendor.context(text)));
}

/**
 * Claims and other writes made offline that the remote then revoked (docs/contract.md §13): the briefing's first
 * section, folded, quoted as data and within its budget like the rest (their text comes from a shared state).
 */
function revokedWrites(revoked: unknown): RevokedWrite[] {
  return Array.isArray(revoked) ? revoked.filter((r): r is RevokedWrite => !!r && typeof r === 'object') : [];
}

/** Renews the agent's leases past half their time, then the radar, from one read of the store (a renewal moves no claim). */
async function postToolUse(ctx: CliContext, args: HookArgs, input: HookInput, session: AgentSession): Promise<void> {
  const readStore = readOnce(ctx.storeReader);
  const text = readStore(); // null: no store, nothing to renew
  for (const id of text === null ? [] : leasesDue(text, args.agent, Date.now(), session)) {
    const r = await ctx.dispatcher.dispatch({ action: 'heartbeat', handoffId: id, agent: args.agent, ...sessionParam(session) });
    if (!r.ok) ctx.io.err(`agentsync hook: could not renew the lease of ${id}: ${r.reason}: ${oneLine(r.message ?? '')}`);
  }
  toolRadar(ctx, args, input, session, readStore);
}

function toolRadar(ctx: CliContext, args: HookArgs, input: HookInput, session: AgentSession, readStore = readOnce(ctx.storeReader)): void {
  const answer =
    radarAnswer(args.event, args.vendor, input, args.agent, ctx.layout.root, Date.now(), readStore, {
      session: () => session,
      relative: worktreeRelative,
    }) ?? withdrawalAnswer(args.event, args.vendor, args.agent, readStore, () => session, ctx.layout);
  if (answer) ctx.io.out(JSON.stringify(answer));
}

async function stop(ctx: CliContext, args: HookArgs, input: Record<string, unknown>, session: AgentSession): Promise<void> {
  const { config } = loadConfig(ctx.layout.configFile);
  // The loader's one rule, as for endSession: a broken or misspelled requireHandoffOnEndSession counts as true
  // (docs/contract.md §7); any other problem in the file does not turn it on.
  const required = config.requireHandoffOnEndSession;
  const problem = config.brokenSections?.requireHandoffOnEndSession?.message ?? null;
  let held: Handoff[] = [];
  if (required) {
    const r = await ctx.dispatcher.dispatch({ action: 'listHandoffs', status: 'in_progress' });
    if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
    held = heldWork((r.data as { handoffs: Handoff[] }).handoffs, args.agent, session);
  }
  const decision = decideStop({
    required,
    held,
    loopActive: args.vendor.loopActive(input),
    session: args.vendor.sessionId(input),
    // The marker lives in the clone's home (docs/contract.md §14), checked from the folder the home is under.
    root: ctx.layout.recordBase,
    markerFile: stopMarkerFile(ctx.layout.recordDir, args.agent, session.id),
    instruction: stopInstruction(args.agent, held, problem),
  });
  ctx.io.out(JSON.stringify(decision.block ? args.vendor.blockStop(decision.reason!) : args.vendor.allowStop()));
}

/**
 * The hook's fetches and pushes end before its agent's time limit (hookDeadline.ts), and a hook told to stop ends
 * them first: no git outlives it.
 */
function boundTheNetwork(): void {
  // Only in a hook's own process (hookMain.ts sets the deadline), never in a process that runs the CLI in-process.
  if (networkDeadline(process.env) === null) return;
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      endRemoteGits();
      process.exit(0);
    });
  }
}

export const hookVerb: Verb = {
  usage: `<${HOOK_EVENTS.join('|')}> [--agent <id>] [--format ${VENDOR_IDS.join('|')}]`,
  summary: "run by an agent's hooks (see init --hooks): reads the vendor's hook JSON on stdin and answers in that vendor's format",
  options: { agent: { type: 'string' }, format: { type: 'string' } },
  workspace: 'found-or-here',
  run: async (ctx, values, pos) => {
    const argv = [
      ...pos,
      ...(values.agent ? ['--agent', values.agent as string] : []),
      ...(values.format ? ['--format', values.format as string] : []),
    ];
    const args = parseHookArgs(argv, process.env);
    if ('error' in args) throw new UsageError(args.error);
    boundTheNetwork();
    const text = process.stdin.isTTY && ctx.io === processIo ? '' : await ctx.io.readStdin();
    const input = parseHookInput(text);
    // A pack run by another vendor than its own (Copilot CLI running .claude/settings.json) does nothing.
    if (args.vendor.runByAnother(process.env, input)) return 0;
    const folder = args.vendor.folder(input);
    const root = findWorkspaceRoot(ctx.layout.root) ?? (folder ? findWorkspaceRoot(folder) : null);
    if (!root) {
      // Not an AgentSync workspace: nothing to brief, renew or hold back.
      if (args.event === 'stop') ctx.io.out(JSON.stringify(args.vendor.allowStop()));
      else if (args.event === 'session-start') ctx.io.out('{}');
      return 0;
    }
    const wctx = root === ctx.layout.root ? ctx : new CliContext(root, true, ctx.io);
    try {
      const session = hookSession(args.vendor, input, args.agent, root);
      if (args.event === 'session-start') await sessionStart(wctx, args, session);
      else if (args.event === 'pre-tool-use') toolRadar(wctx, args, input, session);
      else if (args.event === 'post-tool-use') await postToolUse(wctx, args, input, session);
      else if (args.event === 'session-end') await sessionEnd(wctx, args, input, session);
      else await stop(wctx, args, input, session);
    } catch (e) {
      // A hook that fails must not stop the agent's work: say what happened, let it continue.
      ctx.io.err(`agentsync hook ${args.event}: ${oneLine((e as Error).message)}`);
      if (args.event === 'stop') ctx.io.out(JSON.stringify(args.vendor.allowStop()));
    }
    return 0;
  },
};
