// The CLI verbs of the action catalog's moves (core/requests/catalog/): `agentsync <verb> <handoff-id> --agent <id>`,
// with the move's text flags, sent through the same dispatcher as `request`. A move whose verb reads more than text
// flags (complete's report file, pass, return, assign) says `handWritten` and has its verb in handoffVerbs.ts or
// delegationVerbs.ts; every other move's verb is made here.
import type { Handoff } from '../core/domain/handoffSchema';
import { MOVES, type CatalogMove } from '../core/requests/catalog';
import { UsageError } from './cliContext';
import { handoffDetails, handoffLine } from './handoffFormat';
import type { Verb } from './handoffVerbs';
import { agentOf, one, rev } from './verbArgs';

function verbOf(move: CatalogMove, cli: NonNullable<CatalogMove['cli']>): Verb {
  const flags = cli.flags ?? [];
  const required = new Set(cli.required ?? []);
  const usage = flags.map((f) => (required.has(f) ? `--${f} <text>` : `[--${f} <text>]`));
  return {
    usage: ['<handoff-id>', '--agent <id>', ...usage, '[--expected-rev N]'].join(' '),
    summary: cli.summary,
    options: {
      agent: { type: 'string', short: 'a' },
      'expected-rev': { type: 'string' },
      ...Object.fromEntries(flags.map((f) => [f, { type: 'string' as const }])),
    },
    run: async (ctx, values, pos) => {
      for (const f of required) if (values[f] === undefined) throw new UsageError(`--${f} <text> is required`);
      const response = await ctx.dispatcher.dispatch({
        action: move.action,
        handoffId: one(pos, 'handoff id'),
        agent: agentOf(values),
        ...move.fixed,
        ...Object.fromEntries(flags.filter((f) => values[f] !== undefined).map((f) => [f, values[f]])),
        expected_rev: rev(values),
      });
      return ctx.report(response, (r) => {
        // Every move sends an action that answers { handoff } (test/unit/vscode/manifest/manifest.test.ts runs each derived verb).
        const h = r.data!.handoff as Handoff;
        // A notice (the store's format changing, docs/upgrading.md) is printed under any move that answers one.
        const notice = typeof r.data!.notice === 'string' ? `\nnote: ${r.data!.notice}` : '';
        return (cli.done ? `${cli.done} ${handoffLine(h)}` : handoffDetails(h)) + notice;
      });
    },
  };
}

/** The derived verbs, each also under its older names (docs/architecture.md, "Names"). */
export const MOVE_VERBS: Record<string, Verb> = Object.fromEntries(
  MOVES.flatMap((m) => {
    if (!m.cli || m.cli.handWritten) return [];
    const verb = verbOf(m, m.cli);
    return [m.cli.verb, ...(m.cli.aliases ?? [])].map((name) => [name, verb] as const);
  }),
);
