// `agentsync pass`, `agentsync return` and `agentsync assign`: delegation from the terminal, each one request through
// the dispatcher's passOver / returnHandoff / assignHandoff (docs/agentsync-documentation.md, "Pass over").
import { UsageError } from './cliContext';
import { handoffLine, storedFilesLine } from './handoffFormat';
import type { Verb } from './handoffVerbs';
import { agentOf, list, madeLine, one, quietOption, resultOf, rev } from './verbArgs';

export const passVerb: Verb = {
  usage:
    '[<handoff-id>] --agent <id> (--to <agent>[,<agent>...] | --message "[pass_over: <agent>] ...") [--reason <text>] [--summary <text>] [--notes <text>] ' +
    '[--files <f1,f2>] [--no-return] [--quiet]',
  summary:
    'pass work to another agent, who returns it to you (passOver); with a handoff id the work continues that handoff, without one it is new',
  details: [
    '--quiet prints only the id of the handoff made, e.g. id=$(agentsync pass … --quiet)',
    '--to scout,plan,build (2-5 agents) fans the work out: one handoff each, and ONE joined return when the last has ended',
  ],
  options: {
    agent: { type: 'string', short: 'a' },
    to: { type: 'string', multiple: true },
    reason: { type: 'string' },
    summary: { type: 'string' },
    notes: { type: 'string' },
    message: { type: 'string' },
    files: { type: 'string', multiple: true },
    'no-return': { type: 'boolean' },
    ...quietOption,
  },
  run: async (ctx, v, pos) => {
    if (v.to === undefined && v.message === undefined)
      throw new UsageError('--to <agent> or --message "[pass_over: <agent>] ..." is required');
    const id = pos[0]; // at most one: the usage's [<handoff-id>] (cli/main.ts refuses more)
    const files = list(v.files);
    const to = list(v.to);
    return ctx.report(
      await ctx.dispatcher.dispatch({
        action: 'passOver',
        agent: agentOf(v),
        ...(id !== undefined ? { handoffId: id } : {}),
        ...(to !== undefined ? { to: to.length === 1 ? to[0] : to } : {}),
        ...(v.reason !== undefined ? { reason: v.reason } : {}),
        ...(v.summary !== undefined ? { summary: v.summary } : {}),
        ...(v.notes !== undefined ? { notes: v.notes } : {}),
        ...(v.message !== undefined ? { message: v.message } : {}),
        ...(files ? { files } : {}),
        ...(v['no-return'] ? { return_required: false } : {}),
      }),
      (r) => {
        const h = r.data!.handoff;
        const all = r.data!.handoffs ?? [h];
        const notice = r.data!.notice ? `\nnote: ${r.data!.notice}` : '';
        // A fan-out: one line per child (--quiet: their ids, one a line).
        if (all.length > 1)
          return v.quiet ? all.map((c) => c.handoff_id).join('\n') : all.map((c) => `passed ${handoffLine(c)}`).join('\n') + notice;
        return madeLine(v, h.handoff_id, () => `passed ${handoffLine(h)}${storedFilesLine(files, h)}${notice}`);
      },
    );
  },
};

export const returnVerb: Verb = {
  usage: '<handoff-id> --agent <id> [--result <report.json | ->] [--message "[return_to: <agent>] ..."] [--expected-rev N]',
  summary: 'complete a handoff passed to you and return it, with its report, to the agent that passed it (returnHandoff)',
  options: {
    agent: { type: 'string', short: 'a' },
    result: { type: 'string' },
    message: { type: 'string' },
    'expected-rev': { type: 'string' },
  },
  run: async (ctx, v, pos) => {
    const id = one(pos, 'handoff id');
    const result = await resultOf(ctx, v.result);
    const expected = rev(v);
    return ctx.report(
      await ctx.dispatcher.dispatch({
        action: 'returnHandoff',
        handoffId: id,
        agent: agentOf(v),
        ...(result !== undefined ? { result } : {}),
        ...(v.message !== undefined ? { message: v.message } : {}),
        ...(expected !== undefined ? { expected_rev: expected } : {}),
      }),
      (r) => {
        const returned = r.data!.returned;
        const group = r.data!.handoff.group;
        // A fan-out child comes back with its group: say so rather than nothing (docs/contract.md §6, "Fan-out and join").
        const waits =
          !returned && group ? [`its group of ${group.size} joins back to ${r.data!.handoff.return_to} when the last one has ended`] : [];
        return [`returned ${handoffLine(r.data!.handoff)}`, ...(returned ? [`back to ${handoffLine(returned)}`] : waits)].join('\n');
      },
    );
  },
};

export const assignVerb: Verb = {
  usage: '<handoff-id> --to <a>[,<b>] --agent <human> [--reason <text>]',
  summary: 'a human assigns a blocked or queued handoff to one agent (single) or two (shared); blocked moves to queued (assignHandoff)',
  options: { agent: { type: 'string', short: 'a' }, to: { type: 'string', multiple: true }, reason: { type: 'string' } },
  run: async (ctx, v, pos) => {
    const id = one(pos, 'handoff id');
    const to = list(v.to);
    if (!to?.length) throw new UsageError('--to <agent>[,<agent>] is required');
    return ctx.report(
      await ctx.dispatcher.dispatch({
        action: 'assignHandoff',
        handoffId: id,
        agent: agentOf(v),
        to_agents: to,
        ...(v.reason !== undefined ? { reason: v.reason } : {}),
      }),
      (r) => `assigned ${handoffLine(r.data!.handoff)}`,
    );
  },
};
