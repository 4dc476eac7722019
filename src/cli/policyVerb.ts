// `agentsync policy list | set-pair | set-default | set-subagent | reset` (docs/contract.md §6, Policies): reads
// and edits the passOver section of .agentsync.json through core/passOverPolicyFile.ts, which checks the result as
// the loader does and refuses an invalid one (docs/agentsync-documentation.md, "agentsync policy").
import { loadConfig } from '../core/workspace/configLoader';
import { isActionError } from '../core/domain/errors';
import { okResponse, refusal } from '../core/domain/responseEnvelope';
import { listPolicies, POLICY_KEYS, type PolicyKey, type PolicyListing } from '../core/domain/passOverPolicy';
import { policyValue, resetPolicy, setPolicyKeys, type PolicyEdit, type PolicyTarget } from '../core/workspace/passOverPolicyFile';
import { UsageError, type CliContext } from './cliContext';
import type { Verb } from './handoffVerbs';
import type { Values } from './verbArgs';

const flagOf = (k: PolicyKey) => k.replace(/_/g, '-');
const KEY_OPTIONS = Object.fromEntries(POLICY_KEYS.map((k) => [flagOf(k), { type: 'string' as const }]));

/** The policy keys given as flags (`--auto-return true`), read as JSON would read them. */
function keysOf(values: Values): Partial<Record<PolicyKey, unknown>> {
  const out: Partial<Record<PolicyKey, unknown>> = {};
  for (const k of POLICY_KEYS) {
    const raw = values[flagOf(k)];
    if (typeof raw === 'string') out[k] = policyValue(raw);
  }
  if (Object.keys(out).length === 0)
    throw new UsageError(`give at least one key to set: ${POLICY_KEYS.map((k) => `--${flagOf(k)} <value>`).join(', ')}`);
  return out;
}

function noKeys(values: Values, sub: string): void {
  const given = POLICY_KEYS.filter((k) => values[flagOf(k)] !== undefined);
  if (given.length) throw new UsageError(`${sub} takes no --${flagOf(given[0])}`);
}

/** `reset` alone, `reset <from> <to>` (or `<from>-><to>`), `reset --defaults`, `reset --subagent <agent>`. */
function resetTarget(values: Values, args: string[]): PolicyTarget {
  const chosen = [args.length > 0, values.defaults === true, typeof values.subagent === 'string'].filter(Boolean).length;
  if (chosen > 1) throw new UsageError('reset takes one of: <from> <to>, --defaults, --subagent <agent>');
  if (values.defaults === true) return { kind: 'defaults' };
  if (typeof values.subagent === 'string') return { kind: 'subagent', agent: values.subagent };
  if (args.length === 0) return { kind: 'all' };
  return pairOf(args);
}

function pairOf(args: string[]): { kind: 'pair'; from: string; to: string } {
  const parts = args.length === 1 ? args[0].split('->') : args;
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new UsageError('expected a pair: <from> <to> (or <from>-><to>)');
  return { kind: 'pair', from: parts[0], to: parts[1] };
}

function printList(ctx: CliContext, entries: PolicyListing[], problem: string | null): number {
  if (problem) ctx.io.err(`agentsync: note: ${problem}`);
  if (ctx.json) {
    ctx.io.out(JSON.stringify(okResponse('policy', { policies: entries, problem })));
    return 0;
  }
  const width = Math.max(...POLICY_KEYS.map((k) => k.length));
  const lines: string[] = [];
  for (const e of entries) {
    lines.push(
      e.scope === 'defaults'
        ? 'defaults'
        : e.scope === 'pair'
          ? `pair ${e.name}`
          : `subagent ${e.name} (passes from any agent without a pair)`,
    );
    // 11: the longest value ("only_issues"; a timeout_ms has at most 9 digits).
    for (const k of POLICY_KEYS) lines.push(`  ${k.padEnd(width)}  ${String(e.policy[k]).padEnd(11)}  ${e.sources[k]}`);
  }
  ctx.io.out(lines.join('\n'));
  return 0;
}

function printEdit(ctx: CliContext, sub: string, edit: PolicyEdit): number {
  if (edit.otherProblems) ctx.io.err(`agentsync: note: ${edit.otherProblems}`);
  if (ctx.json) {
    ctx.io.out(JSON.stringify(okResponse('policy', { command: sub, ...edit })));
    return 0;
  }
  ctx.io.out(
    edit.changed ? `${sub === 'reset' ? 'removed' : 'set'} ${edit.path} in .agentsync.json` : `nothing to reset: ${edit.path} is not set`,
  );
  return 0;
}

function run(ctx: CliContext, values: Values, positionals: string[]): number {
  const [sub, ...args] = positionals;
  const file = ctx.layout.configFile;
  switch (sub) {
    case 'list': {
      if (args.length) throw new UsageError('list takes no arguments');
      noKeys(values, sub);
      const loaded = loadConfig(file);
      return printList(ctx, listPolicies(loaded.config), loaded.problem);
    }
    case 'set-pair':
      return printEdit(ctx, sub, setPolicyKeys(file, pairOf(args), keysOf(values)));
    case 'set-default':
      if (args.length) throw new UsageError('set-default takes no arguments, only --<key> <value> flags');
      return printEdit(ctx, sub, setPolicyKeys(file, { kind: 'defaults' }, keysOf(values)));
    case 'set-subagent':
      if (args.length !== 1) throw new UsageError('expected one agent: set-subagent <agent> --<key> <value>');
      return printEdit(ctx, sub, setPolicyKeys(file, { kind: 'subagent', agent: args[0] }, keysOf(values)));
    case 'reset':
      noKeys(values, sub);
      return printEdit(ctx, sub, resetPolicy(file, resetTarget(values, args)));
    default:
      throw new UsageError(sub ? `unknown policy command "${sub}"` : 'expected list, set-pair, set-default, set-subagent or reset');
  }
}

export const policyVerb: Verb = {
  usage:
    'list | set-pair <from> <to> --<key> <value>… | set-default --<key> <value>… | set-subagent <agent> --<key> <value>… | ' +
    'reset [<from> <to> | --defaults | --subagent <agent>]',
  summary: 'show or edit the pass-over policies of .agentsync.json (list, set-pair, set-default, set-subagent, reset)',
  details: [
    'list prints the resolved policy of the defaults, of each subagent and of each pair, and where each value comes from.',
    `keys: ${POLICY_KEYS.map((k) => `--${flagOf(k)}`).join(' ')}; values as in the file: true, false, numbers,`,
    '  and for --notify-on-return also always, only_issues or never. Example: agentsync policy set-pair alice audit --auto-return true',
    'An edit is checked like the file (same schema, agent list and conflict checks); one that would be refused is not written.',
    'reset alone removes the whole passOver section (the built-in policy applies again).',
  ],
  options: { ...KEY_OPTIONS, defaults: { type: 'boolean' }, subagent: { type: 'string' } },
  ownWords: true,
  run: (ctx, values, positionals) => {
    try {
      return run(ctx, values, positionals);
    } catch (e) {
      if (!isActionError(e)) throw e;
      // A refusal (E030/E031, a file that cannot be edited): the same envelope as a refused request.
      const body = refusal('policy', e.reason, e.message, {}, e.details);
      if (ctx.json) ctx.io.out(JSON.stringify(body));
      else ctx.io.err(`agentsync: ${e.reason}: ${e.message}`);
      return 1;
    }
  },
};
