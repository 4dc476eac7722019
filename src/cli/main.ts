// The `agentsync` command: global options, then a verb. Exit 0 success, 1 refusal or invalid input, 2 usage error.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ActionError, isActionError } from '../core/domain/errors';
import { MAX_REQUEST_BYTES } from '../core/requests/requestDispatcher';
import { CliContext, UsageError, outputFailed, processIo, type CliIo } from './cliContext';
import { VERBS, type Verb } from './handoffVerbs';
import { EXTRA_VERBS } from './extraVerbs';
import { MOVE_VERBS } from './moveVerbs';
import { trustVerb } from './trustVerb';
import { syncVerb } from './syncVerb';
import { refusal } from '../core/domain/responseEnvelope';
import { oneLine } from './terminalText';
import { packageVersion } from './packageVersion';
import { findWorkspaceRoot, notAWorkspaceMessage } from '../core/store/workspaceRoot';
import { rememberWorktrees } from '../core/git/worktreeLocation';

const GLOBAL_OPTIONS = {
  dir: { type: 'string', short: 'C' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  /** With "sync" set: fetch the shared state before the command (docs/contract.md §13). */
  fresh: { type: 'boolean' },
  /** The request_id of the command's write: a retry after remote_outcome_unknown carries the one it was given. */
  'request-id': { type: 'string' },
} as const;

const requestVerb: Verb = {
  usage: '<file.json | ->',
  summary: 'run one request object (docs/contract.md §8) through the dispatcher and print its response as JSON',
  options: {},
  run: async (ctx, _v, pos) => {
    if (pos.length !== 1) throw new UsageError('expected one request file, or - for standard input');
    let text: string;
    if (pos[0] === '-') text = await ctx.io.readStdin();
    else {
      const file = path.resolve(pos[0]);
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st || !st.isFile()) throw new UsageError(`${pos[0]} is not a readable file`);
      if (st.size > MAX_REQUEST_BYTES) {
        // Refused before reading, like the drop zone: a huge file is never loaded whole.
        const tooLarge = new ActionError(
          'too_large',
          `${pos[0]} is ${st.size} bytes, over the ${MAX_REQUEST_BYTES}-byte limit for a request; it was not read. Send less (large text belongs ` +
            `in files the handoff names).`,
        );
        ctx.io.out(JSON.stringify(ctx.dispatcher.refuse({ surface: 'cli' }, null, null, tooLarge)));
        return 1;
      }
      text = fs.readFileSync(file, 'utf8');
    }
    const response = await ctx.dispatcher.dispatchText(text);
    ctx.io.out(JSON.stringify(response));
    return response.ok ? 0 : 1;
  },
};

export const ALL_VERBS: Record<string, Verb> = {
  request: requestVerb,
  ...VERBS,
  ...MOVE_VERBS,
  ...EXTRA_VERBS,
  trust: trustVerb,
  sync: syncVerb,
};

export function helpText(verb?: string): string {
  if (verb && ALL_VERBS[verb]) {
    const v = ALL_VERBS[verb];
    const opts = Object.entries(v.options).map(
      ([name, o]) => `  --${name}${o.type === 'string' ? ' <value>' : ''}${o.multiple ? ' (repeatable, or comma-separated)' : ''}`,
    );
    return [
      `agentsync ${verb} ${v.usage}`,
      '',
      v.summary,
      ...(v.details ?? []),
      ...(opts.length ? ['', 'options:', ...opts] : []),
      '',
      'global options: --dir <workspace> (default: the nearest folder at or above this one holding .agentsync.json),',
      '  --json (print one JSON object), --fresh (with sync: fetch first),',
      "  --request-id <id> (the id of the command's write: a retry with the same id is answered, never applied twice)",
    ].join('\n');
  }
  const width = Math.max(...Object.keys(ALL_VERBS).map((k) => k.length));
  return [
    'agentsync: hand work between AI coding agents and humans (handoffs in .agentsync/handoffs.json)',
    '',
    'usage: agentsync [--dir <workspace>] [--json] <command> [options]',
    '',
    'commands:',
    ...Object.entries(ALL_VERBS).map(([k, v]) => `  ${k.padEnd(width)}  ${v.summary}`),
    '',
    "agentsync <command> --help shows a command's options; agentsync --version (-v) prints the version.",
    'Exit codes: 0 ok, 1 refused or invalid input, 2 usage error.',
  ].join('\n');
}

/**
 * A word the verb does not take is refused, not ignored: `create --to claude copilot` would otherwise make a handoff
 * for claude alone. The words a verb takes are its usage's leading placeholders, so the rule lives with the usage.
 */
function refuseExtraWords(name: string, verb: Verb, positionals: string[]): void {
  if (verb.ownWords) return;
  const lead = /^(?:\s*\[?<[^>]*>\]?)*/.exec(verb.usage)![0];
  const takes = (lead.match(/</g) ?? []).length;
  if (positionals.length <= takes) return;
  const extra = positionals[takes];
  throw new UsageError(
    `unexpected argument "${extra}": ${name} takes ${takes === 0 ? 'no words' : `only ${lead.trim()}`} besides its options ` +
      '(a list is comma-separated, e.g. --to claude,copilot; quote a value that has spaces)',
  );
}

export async function runCli(argv: string[], io: CliIo = processIo, cwd = process.cwd()): Promise<number> {
  const verbIndex = findVerbIndex(argv);
  const verbName = verbIndex >= 0 ? argv[verbIndex] : undefined;
  const rest = verbIndex >= 0 ? [...argv.slice(0, verbIndex), ...argv.slice(verbIndex + 1)] : argv;
  const wantsJson = argv.includes('--json');
  try {
    if (verbName === undefined) {
      if (argv.includes('--help') || argv.includes('-h') || argv.length === 0) {
        io.out(helpText());
        return argv.length === 0 ? 2 : 0;
      }
      // Only without a command: after one, --version is an option that command does not take, and is refused as such.
      if (argv.includes('--version') || argv.includes('-v')) {
        io.out(packageVersion());
        return 0;
      }
      throw new UsageError('no command given');
    }
    const verb = ALL_VERBS[verbName];
    if (!verb) throw new UsageError(`unknown command "${verbName}"`);
    const options = { ...GLOBAL_OPTIONS, ...verb.options };
    const { values, positionals, tokens } = parseArgs({ args: rest, options, allowPositionals: true, strict: true, tokens: true });
    refuseRepeatedOptions(options, tokens);
    if (values.help) {
      io.out(helpText(verbName));
      return 0;
    }
    refuseExtraWords(verbName, verb, positionals);
    const dir = values.dir !== undefined ? path.resolve(cwd, values.dir) : verb.workspace === 'here' ? cwd : findWorkspaceRoot(cwd);
    if (dir === null && verb.workspace !== 'found-or-here') {
      // Outside every workspace: refused before anything is opened, so nothing is written (docs/contract.md §8).
      const message = notAWorkspaceMessage(cwd);
      if (values.json) io.out(JSON.stringify(refusal(verbName, 'not_a_workspace', message)));
      else io.err(`agentsync: not_a_workspace: ${message}`);
      return 1;
    }
    const ctx = new CliContext(dir ?? cwd, Boolean(values.json), io, Boolean(values.fresh), values['request-id']);
    return await verb.run(ctx, values, positionals);
  } catch (e) {
    const usage = e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // parseArgs's own messages span lines; a usage error is one line of the program's own words, never a literal \n.
    const said = usage ? (e as Error).message.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\.+$/, '') : (e as Error).message;
    const message = `${said}${usage ? `. Run agentsync ${verbName && ALL_VERBS[verbName] ? `${verbName} ` : ''}--help.` : ''}`;
    // A refusal a verb throws (e.g. init's hooks_file_invalid, store_unsafe) keeps its documented reason and details.
    if (wantsJson && isActionError(e)) io.out(JSON.stringify(refusal(verbName ?? null, e.reason, e.message, {}, e.details)));
    else if (wantsJson) io.out(JSON.stringify(refusal(verbName ?? null, usage ? 'usage' : 'internal_error', message)));
    else io.err(`agentsync: ${oneLine(message)}`);
    return usage ? 2 : 1;
  }
}

/**
 * A value option given twice (`--agent claude --agent copilot`) is a usage error, not the last one silently winning; an
 * option documented as repeatable (`multiple`) collects every value.
 */
function refuseRepeatedOptions(
  options: Record<string, { type: string; multiple?: boolean }>,
  tokens: readonly { kind: string; name?: string }[],
): void {
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'option' || !t.name) continue;
    const o = options[t.name];
    if (!o || o.type !== 'string' || o.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} was given more than once; give it once`);
    seen.add(t.name);
  }
}

/** The verb is the first bare word that is not the value of --dir/-C. */
function findVerbIndex(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dir' || a === '-C' || a === '--request-id') {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return i;
  }
  return -1;
}

/**
 * Entry point used by bin/agentsync.js. A verb that answers once and exits finds the folder's worktree and the clone's
 * home once: the workspace search, the layout and the caller's place would otherwise each read the same `.git` files.
 */
export function main(): void {
  const argv = process.argv.slice(2);
  const verb = ALL_VERBS[argv[findVerbIndex(argv)]];
  if (verb && !verb.freshWorktrees) rememberWorktrees();
  runCli(argv).then(
    (code) => {
      process.exitCode = outputFailed() ? 1 : code;
    },
    (e) => {
      process.stderr.write(`agentsync: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
