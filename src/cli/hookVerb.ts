// `agentsync hook <event>`: what the agents' own hooks run (docs/agentsync-documentation.md, "Hook packs").
// session-start starts the agent's session and puts the briefing into its context; post-tool-use renews its leases
// when they are past half their time; stop blocks once while it holds claimed work, under requireHandoffOnEndSession.
// A hook never runs a configured command (build, test, deploy), and a failure never stops the agent: it is reported
// on stderr and the hook exits 0.
import * as fs from 'node:fs';
import { loadConfig } from '../core/workspace/configLoader';
import { blockStopOutput, contextOutput, ALLOW_STOP_OUTPUT, sessionIdOf, stopLoopActive } from '../core/hooks/hookOutput';
import { findWorkspaceRoot, HOOK_EVENTS, HOOK_FORMATS, inputFolder, parseHookArgs, type HookArgs } from '../core/hooks/hookInput';
import { leasesDue } from '../core/hooks/leaseRenewal';
import { decideStop, heldWork, stopInstruction, stopMarkerFile } from '../core/hooks/stopGate';
import { briefingText } from '../core/requests/sessions/briefingText';
import { CliContext, processIo, UsageError } from './cliContext';
import type { Handoff } from '../core/domain/handoffSchema';
import type { SessionBriefing } from '../core/requests/sessions/sessionBriefing';
import type { Verb } from './handoffVerbs';

function parseInput(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function sessionStart(ctx: CliContext, args: HookArgs): Promise<void> {
  const r = await ctx.dispatcher.dispatch({ action: 'startSession', agent: args.agent, goal: `Session started (${args.format} hook)` });
  const text = r.ok
    ? revokedText(r.data?.sync_revoked) + briefingText((r.data as { briefing: SessionBriefing }).briefing)
    : `AgentSync: startSession was refused (${r.reason}): ${r.message}. Read AGENTS.md for how to use AgentSync here.`;
  ctx.io.out(JSON.stringify(contextOutput(args.format, text)));
}

/** Claims and other writes made offline that the remote then revoked (docs/contract.md §13), first in the briefing. */
function revokedText(revoked: unknown): string {
  if (!Array.isArray(revoked) || revoked.length === 0) return '';
  const lines = (revoked as { action: string; handoff_id: string | null; reason: string; message: string }[]).map(
    (r) => `- ${r.action} ${r.handoff_id ?? ''}: ${r.reason}: ${r.message}`,
  );
  return `AgentSync: REVOKED by the shared state after an offline time; stop that work:\n${lines.join('\n')}\n\n`;
}

async function postToolUse(ctx: CliContext, args: HookArgs): Promise<void> {
  let text: string;
  try {
    text = fs.readFileSync(ctx.layout.handoffsFile, 'utf8');
  } catch {
    return;
  }
  for (const id of leasesDue(text, args.agent, Date.now())) {
    const r = await ctx.dispatcher.dispatch({ action: 'heartbeat', handoffId: id, agent: args.agent });
    if (!r.ok) ctx.io.err(`agentsync hook: could not renew the lease of ${id}: ${r.reason}: ${r.message}`);
  }
}

async function stop(ctx: CliContext, args: HookArgs, input: Record<string, unknown>): Promise<void> {
  const { config, problem } = loadConfig(ctx.layout.configFile);
  // requireHandoffOnEndSession restricts, so a broken config fails closed (docs/contract.md §7).
  const required = problem !== null || config.requireHandoffOnEndSession;
  let held: Handoff[] = [];
  if (required) {
    const r = await ctx.dispatcher.dispatch({ action: 'listHandoffs', status: 'in_progress' });
    if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
    held = heldWork((r.data as { handoffs: Handoff[] }).handoffs, args.agent);
  }
  const decision = decideStop({
    required,
    held,
    loopActive: stopLoopActive(args.format, input),
    session: sessionIdOf(input),
    markerFile: stopMarkerFile(ctx.layout.dataDir, args.agent),
    instruction: stopInstruction(args.agent, held, problem),
  });
  ctx.io.out(JSON.stringify(decision.block ? blockStopOutput(args.format, decision.reason!) : ALLOW_STOP_OUTPUT));
}

export const hookVerb: Verb = {
  usage: `<${HOOK_EVENTS.join('|')}> [--agent <id>] [--format ${HOOK_FORMATS.join('|')}]`,
  summary: "run by an agent's hooks (see init --hooks): reads the vendor's hook JSON on stdin and answers in that vendor's format",
  options: { agent: { type: 'string' }, format: { type: 'string' } },
  run: async (ctx, values, pos) => {
    const argv = [
      ...pos,
      ...(values.agent ? ['--agent', values.agent as string] : []),
      ...(values.format ? ['--format', values.format as string] : []),
    ];
    const args = parseHookArgs(argv, process.env);
    if ('error' in args) throw new UsageError(args.error);
    const text = process.stdin.isTTY && ctx.io === processIo ? '' : await ctx.io.readStdin();
    const input = parseInput(text);
    const folder = inputFolder(input);
    const root = findWorkspaceRoot(ctx.layout.root) ?? (folder ? findWorkspaceRoot(folder) : null);
    if (!root) {
      // Not an AgentSync workspace: nothing to brief, renew or hold back.
      if (args.event !== 'post-tool-use') ctx.io.out(JSON.stringify(args.event === 'stop' ? ALLOW_STOP_OUTPUT : {}));
      return 0;
    }
    const wctx = root === ctx.layout.root ? ctx : new CliContext(root, true, ctx.io);
    try {
      if (args.event === 'session-start') await sessionStart(wctx, args);
      else if (args.event === 'post-tool-use') await postToolUse(wctx, args);
      else await stop(wctx, args, input);
    } catch (e) {
      // A hook that fails must not stop the agent's work: say what happened, let it continue.
      ctx.io.err(`agentsync hook ${args.event}: ${(e as Error).message}`);
      if (args.event === 'stop') ctx.io.out(JSON.stringify(ALLOW_STOP_OUTPUT));
    }
    return 0;
  },
};
