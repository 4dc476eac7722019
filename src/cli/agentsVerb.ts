// `agentsync agents list | add | remove` (docs/contract.md §7): the agent list of .agentsync.json (agentCapabilities),
// edited through core/workspace/agentListFile.ts. remove first reads the record for the agent's claims and open chains.
import { loadConfig } from '../core/workspace/configLoader';
import { isActionError } from '../core/domain/errors';
import { isTerminal, type Handoff } from '../core/domain/handoffSchema';
import { normalizeAgentId } from '../core/domain/agentId';
import { okResponse, refusal } from '../core/domain/responseEnvelope';
import { addAgent, removeAgent, type AgentEdit, type AgentUse } from '../core/workspace/agentListFile';
import { UsageError, type CliContext } from './cliContext';
import type { Verb } from './handoffVerbs';
import type { Values } from './verbArgs';

function capsOf(values: Values): string[] {
  const raw = values.caps;
  const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []).flatMap((c) => String(c).split(','));
  return list.map((c) => c.trim()).filter(Boolean);
}

/** Where the agent is still needed: in-progress work it holds, open handoffs whose chain or return it is part of. */
async function useOf(ctx: CliContext, agent: string): Promise<AgentUse> {
  const r = await ctx.dispatcher.dispatch({ action: 'listHandoffs', open: true });
  if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  const open = (r.data as { handoffs: Handoff[] }).handoffs.filter((h) => !isTerminal(h.status));
  return {
    claims: open.filter((h) => h.status === 'in_progress' && h.claimed_by === agent).map((h) => h.handoff_id),
    chains: open.filter((h) => (h.chain ?? []).includes(agent) || h.return_to === agent).map((h) => h.handoff_id),
  };
}

function printEdit(ctx: CliContext, sub: string, edit: AgentEdit): number {
  if (edit.otherProblems) ctx.io.err(`agentsync: note: ${edit.otherProblems}`);
  if (ctx.json) ctx.io.out(JSON.stringify(okResponse('agents', { command: sub, ...edit })));
  else if (!edit.changed) ctx.io.out(sub === 'add' ? `${edit.agent} already has those capabilities` : `${edit.agent} is not listed`);
  else ctx.io.out(sub === 'add' ? `${edit.agent}: ${edit.capabilities.join(', ') || '(no capabilities)'}` : `removed ${edit.agent}`);
  return 0;
}

async function run(ctx: CliContext, values: Values, positionals: string[]): Promise<number> {
  const [sub, ...args] = positionals;
  const file = ctx.layout.configFile;
  switch (sub) {
    case 'list': {
      if (args.length) throw new UsageError('list takes no arguments');
      const loaded = loadConfig(file);
      const broken = loaded.config.brokenSections?.agentCapabilities;
      if (loaded.problem) ctx.io.err(`agentsync: note: ${loaded.problem}`);
      const agents = Object.entries(loaded.config.agentCapabilities).map(([agent, capabilities]) => ({ agent, capabilities }));
      if (ctx.json) ctx.io.out(JSON.stringify(okResponse('agents', { agents, humans: loaded.config.humans, broken: broken ?? null })));
      else if (agents.length === 0)
        ctx.io.out('no agents configured: any agent id is accepted (agentsync agents add <agent> --caps <c1,c2>)');
      else ctx.io.out(agents.map((a) => `${a.agent}: ${a.capabilities.join(', ') || '(no capabilities)'}`).join('\n'));
      return broken ? 1 : 0;
    }
    case 'add':
      if (args.length !== 1) throw new UsageError('expected one agent: add <agent> [--caps <c1,c2>]');
      return printEdit(ctx, sub, addAgent(file, args[0], capsOf(values)));
    case 'remove':
      if (args.length !== 1) throw new UsageError('expected one agent: remove <agent>');
      return printEdit(ctx, sub, removeAgent(file, args[0], await useOf(ctx, normalizeAgentId(args[0]))));
    default:
      throw new UsageError(sub ? `unknown agents command "${sub}"` : 'expected list, add or remove');
  }
}

export const agentsVerb: Verb = {
  usage: 'list | add <agent> [--caps <c1,c2>] | remove <agent>',
  summary: 'list, add or remove the agents of .agentsync.json (agentCapabilities) and their capabilities',
  details: [
    'add adds an agent, or capabilities to one already listed; remove refuses an agent that holds claims or stands in an open chain.',
    'The file is written atomically, every other key as it was; an edit the loader would refuse is not written.',
  ],
  options: { caps: { type: 'string', multiple: true } },
  ownWords: true,
  run: async (ctx, values, positionals) => {
    try {
      return await run(ctx, values, positionals);
    } catch (e) {
      if (!isActionError(e)) throw e;
      const body = refusal('agents', e.reason, e.message, {}, e.details);
      if (ctx.json) ctx.io.out(JSON.stringify(body));
      else ctx.io.err(`agentsync: ${e.reason}: ${e.message}`);
      return 1;
    }
  },
};
