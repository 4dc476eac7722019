// dist/hook.js: `agentsync hook …` without loading the CLI (docs/agentsync-documentation.md, "Hook packs").
// post-tool-use runs after every tool call of an agent, so when no lease of the agent is due for renewal it
// answers from here, with Node built-ins only; anything else is handed to the full CLI (dist/cli.js).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findWorkspaceRoot, inputFolder, parseHookArgs } from '../core/hooks/hookInput';
import { leasesDue } from '../core/hooks/leaseRenewal';
import type { CliIo } from './cliContext';

function readStdinText(): string {
  if (process.stdin.isTTY) return '';
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** True when post-tool-use has nothing to do: no workspace, no store, or no lease of the agent past half its time. */
function nothingDue(dir: string | null, inputText: string, agent: string): boolean {
  let input: Record<string, unknown> = {};
  try {
    input = JSON.parse(inputText) as Record<string, unknown>;
  } catch {
    // no usable input: the folder comes from --dir or the current directory
  }
  const folder = input && typeof input === 'object' ? inputFolder(input) : null;
  const root = findWorkspaceRoot(dir ?? process.cwd()) ?? (folder ? findWorkspaceRoot(folder) : null);
  if (!root) return true;
  let text: Buffer;
  try {
    text = fs.readFileSync(path.join(root, '.agentsync', 'handoffs.json'));
  } catch {
    return true;
  }
  return leasesDue(text, agent, Date.now()).length === 0;
}

export function main(): void {
  const argv = process.argv.slice(2);
  const args = parseHookArgs(argv, process.env);
  const inputText = readStdinText();
  if (!('error' in args) && args.event === 'post-tool-use' && nothingDue(args.dir, inputText, args.agent)) return;
  // The full CLI: dist/cli.js beside this bundle, or main.js when running from the compiled sources (tests).
  const cli = fs.existsSync(path.join(__dirname, 'cli.js')) ? path.join(__dirname, 'cli.js') : path.join(__dirname, 'main.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at run time from a computed path so esbuild keeps the CLI out of this bundle
  const { runCli } = require(cli) as typeof import('./main');
  const io: CliIo = {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    readStdin: () => Promise.resolve(inputText),
  };
  runCli(argv, io).then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`agentsync hook: ${(e as Error).message}\n`);
      process.exitCode = 0;
    },
  );
}
