// What a configured command runs, beyond its own text (docs/agentsync-documentation.md, "Trusting a workspace's
// commands"): approving `./build.sh` must not approve whatever build.sh says after the next `git pull`. So the consent
// also covers, as a SHA-256 of their contents, the repository files a command runs:
// - the program, when it is a path (`./build.sh`, `scripts/deploy`), also behind `env`, `npx`, `exec`, `time`, `nice`;
// - the script an interpreter is given (`node build.js`, `sh ./deploy.sh`, `python3 tools/check.py`);
// - the same inside a shell snippet (`sh -c './a.sh && node b.js'`, a package.json script), command by command;
// - for `npm`, `yarn`, `pnpm` and `bun` running a package.json script (`npm test`, `npm run build`): the text of that
//   script and of its `pre`/`post` scripts, and what those run, as above;
// - for `make`: the workspace's Makefile.
// Words a command only reads or writes (`-o dist/app.js`, `> marker`) are data, not covered: a build that writes its
// output must not revoke its own approval. Programs installed outside the repository (node, npm, node_modules, the
// system's) are the user's, not covered, and neither is what a covered script itself imports or calls.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandArgv, splitCommandLine } from '../domain/commandLine';
import type { AgentSyncConfig } from '../domain/configSchema';

/** Label (`build.sh`, `package.json scripts.build`, `Makefile`) → SHA-256 of what it is now; null: it does not exist. */
export type CommandTargets = Record<string, string | null>;

const SCRIPT_RUNNERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
/** npm's own names for `npm run <script>`, and the scripts it runs as `npm <name>`. */
const RUN_WORDS = new Set(['run', 'run-script', 'rum', 'urn']);
const DIRECT_SCRIPTS: Record<string, string> = { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop', restart: 'restart' };
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function fileDigest(file: string): string | null | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined; // a folder or device: nothing a command runs
    const hash = createHash('sha256');
    const buf = Buffer.alloc(64 * 1024);
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) hash.update(buf.subarray(0, n));
    return hash.digest('hex');
  } finally {
    fs.closeSync(fd);
  }
}

/** The repository the workspace is in (the nearest folder above with `.git`), else the workspace itself. */
function repositoryTop(root: string): string {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(root);
  }
}

const SHELLS = /^(sh|bash|zsh|dash|ksh|fish)$/;
const INTERPRETERS = /^(sh|bash|zsh|dash|ksh|fish|node|nodejs|deno|tsx|ts-node|python[\d.]*|ruby|perl|php|pwsh|powershell)$/;
/** Words that run the command after them (and their own flags, and `NAME=value` for env). */
const WRAPPERS = /^(env|exec|time|nice|nohup|command|npx|pnpx)$/;
/** Flags whose next word is inline code or a module, not a file: nothing of the repository is named. */
const INLINE_CODE = new Set(['-c', '-e', '--eval', '-p', '--print', '-m']);
/** Flags whose next word is more code the interpreter loads first (`node -r ./setup.js app.js`). */
const CODE_FLAGS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);

const base = (program: string) => path.basename(program).replace(/\.(cmd|exe)$/i, '');

/** The simple commands of a shell snippet: split at `;`, `&&`, `||`, `|`, `&`, line breaks and parentheses. */
function snippetCommands(snippet: string): string[][] {
  return snippet
    .split(/&&|\|\||[;|&\n()`]|\$\(/)
    .map((part) => {
      try {
        return splitCommandLine(part);
      } catch {
        return part.split(/\s+/).filter(Boolean); // an unbalanced quote inside the snippet: plain words
      }
    })
    .map((words) => words.filter((w) => !/^[<>]/.test(w)))
    .filter((words) => words.length > 0);
}

class TargetCollector {
  readonly targets: CommandTargets = {};
  private readonly top: string;

  constructor(private readonly root: string) {
    this.top = repositoryTop(root);
  }

  /**
   * Records what `argv` runs from the repository: its program when that is a path, an interpreter's script, a shell's
   * snippet command by command; `depth` stops a snippet that nests snippets.
   */
  command(argv: readonly string[], depth = 0): void {
    let i = 0;
    while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i])) i++; // FOO=1 ./build.sh
    const program = argv[i];
    if (program === undefined || depth > 4) return;
    const name = base(program);
    if (program.includes('/')) this.file(program, true);
    if (WRAPPERS.test(name)) {
      let j = i + 1;
      while (j < argv.length && (argv[j].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[j]))) j++;
      this.command(argv.slice(j), depth + 1);
      return;
    }
    if (INTERPRETERS.test(name)) {
      for (let j = i + 1; j < argv.length; j++) {
        const w = argv[j];
        if (SHELLS.test(name) && /^-[a-z]*c[a-z]*$/.test(w)) {
          if (argv[j + 1] !== undefined) this.snippet(argv[j + 1], depth + 1); // sh -c '...', bash -lc '...'
          return;
        }
        if (INLINE_CODE.has(w)) return;
        if (CODE_FLAGS.has(w)) {
          if (argv[j + 1] !== undefined) this.file(argv[++j], false);
          continue;
        }
        if (w.startsWith('-') || (name === 'deno' && w === 'run')) continue;
        this.file(w, true);
        return;
      }
      return;
    }
    const script = scriptNamed(argv.slice(i));
    if (script) {
      this.script(script, depth);
      this.file(script, false); // `bun run build.ts`, `bun build.ts`: a file, not a script
    }
    if (/^g?make$/.test(name)) this.makefile();
  }

  snippet(text: string, depth: number): void {
    for (const argv of snippetCommands(text)) this.command(argv, depth);
  }

  /** Records the repository file `word` names; `explicit`: recorded even while missing (its appearing asks again). */
  private file(word: string, explicit: boolean): void {
    const file = path.resolve(this.root, word);
    const rel = path.relative(this.top, file);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return;
    const label = path.relative(this.root, file).split(path.sep).join('/');
    if (label in this.targets) return;
    const digest = fileDigest(file);
    if (digest === undefined || (digest === null && !explicit)) return;
    this.targets[label] = digest;
  }

  private script(name: string, depth: number): void {
    const pkg = this.packageScripts();
    for (const s of [`pre${name}`, name, `post${name}`]) {
      const text = pkg?.[s];
      const label = `package.json scripts.${s}`;
      if (label in this.targets) continue;
      if (typeof text === 'string') {
        this.targets[label] = sha256(text);
        this.snippet(text, depth + 1); // npm runs a script with sh
      } else if (s === name) this.targets[label] = null; // the script asked for: its appearing later asks again
    }
  }

  private makefile(): void {
    for (const f of MAKEFILES) {
      const digest = fileDigest(path.join(this.root, f));
      if (digest) {
        this.targets[f] = digest;
        return;
      }
    }
    this.targets.Makefile = null;
  }

  private packageScripts(): Record<string, unknown> | null {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(this.root, 'package.json'), 'utf8')) as { scripts?: unknown };
      return pkg.scripts && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
}

/** The package.json script `npm test`, `npm run build`, `yarn build`, `pnpm run lint`, `bun run x` runs, if any. */
export function scriptNamed(argv: readonly string[]): string | null {
  if (argv.length === 0) return null;
  const runner = base(argv[0]);
  if (!SCRIPT_RUNNERS.has(runner)) return null;
  const words = argv.slice(1).filter((w) => !w.startsWith('-'));
  const [first, second] = words;
  if (first === undefined) return null;
  if (RUN_WORDS.has(first)) return second ?? null;
  if (runner === 'npm') return DIRECT_SCRIPTS[first] ?? null;
  if (runner === 'bun' && first === 'test') return null; // bun's own test runner
  return first; // yarn, pnpm and bun run a script (bun: or a file) named as the first word
}

/** Everything the configured commands run that lives in the repository, as it is now. */
export function commandTargets(root: string, commands: AgentSyncConfig['commands']): CommandTargets {
  const collector = new TargetCollector(root);
  for (const key of ['build', 'test', 'deploy'] as const) {
    let argv: string[] | null;
    try {
      argv = commandArgv(commands[key]);
    } catch {
      continue; // an unclosed quote: the check fails without running anything
    }
    if (argv) collector.command(argv);
  }
  return Object.fromEntries(Object.entries(collector.targets).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What changed between the approved targets and the current ones, as people read it (`build.sh changed`). */
export function targetChanges(approved: CommandTargets | undefined, now: CommandTargets): string[] {
  const out: string[] = [];
  for (const [label, digest] of Object.entries(now)) {
    if (approved === undefined || !(label in approved)) out.push(`${label} was not covered by the approval`);
    else if (approved[label] !== digest)
      out.push(digest === null ? `${label} is gone` : approved[label] === null ? `${label} appeared` : `${label} changed`);
  }
  for (const label of Object.keys(approved ?? {})) if (!(label in now)) out.push(`${label} is no longer run`);
  return out;
}
