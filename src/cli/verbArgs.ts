// Reading a verb's flags and positionals, shared by every friendly verb: the acting agent, one id, comma lists,
// --expected-rev and a --result report file. Each problem is a UsageError (exit 2) that says what to give.
import * as fs from 'node:fs';
import { UsageError, type CliContext } from './cliContext';

export type Values = Record<string, string | boolean | string[] | undefined>;

/** --agent, else $AGENTSYNC_AGENT. */
export function agentOf(values: Values): string {
  const agent = (values.agent as string | undefined) ?? process.env.AGENTSYNC_AGENT;
  if (!agent) throw new UsageError('--agent <id> is required (or set AGENTSYNC_AGENT)');
  return agent;
}

export function one(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one ${what}`);
  return positionals[0];
}

/** A repeatable or comma-separated flag (`--files a,b --files c`). */
export function list(v: string | boolean | string[] | undefined): string[] | undefined {
  if (v === undefined || typeof v === 'boolean') return undefined;
  return (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

export function rev(values: Values): number | undefined {
  const raw = values['expected-rev'] as string | undefined;
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError('--expected-rev takes a whole number');
  return Number(raw);
}

/** --result <report.json | ->: the completion report, parsed; undefined when the flag is absent. */
export async function resultOf(ctx: CliContext, raw: string | boolean | string[] | undefined): Promise<unknown> {
  if (typeof raw !== 'string') return undefined;
  let text: string;
  try {
    text = raw === '-' ? await ctx.io.readStdin() : fs.readFileSync(raw, 'utf8');
  } catch (e) {
    throw new UsageError(
      `--result ${raw}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a JSON report file, or - for standard input`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--result is not valid JSON: ${(e as Error).message}`);
  }
}

/** --quiet: a verb that makes a handoff prints only its id, for a shell variable (`id=$(agentsync create … --quiet)`). */
export const quietOption = { quiet: { type: 'boolean', short: 'q' } } as const;

export function madeLine(values: Values, id: string, full: () => string): string {
  return values.quiet ? id : full();
}
