// What a configured command runs, beyond its own text (docs/agentsync-documentation.md, "Trusting a workspace's
// commands"): approving `./build.sh` must not approve whatever build.sh says after the next `git pull`. So the consent
// also covers, as a SHA-256 of their contents, the repository files a command may run. Programs' options are too many
// to parse one by one, so the rule fails closed: it covers
// - every word of the command, and of each command of a shell snippet (`sh -c '...'`, a package.json script), that
//   names an existing file inside the repository, `--opt=` and `NAME=` prefixes stripped, resolved against the
//   workspace and, after a `cd <dir>` in a snippet, against that folder too (`nice -n 5 ./b.sh`, `timeout 60 ./b.sh`,
//   `node --require=./s.js b.js`, `bash -o errexit build.sh`);
// - the program or an interpreter's script when it is not there yet (`./build.sh`, `node build.js`): its appearing
//   asks again;
// - whenever npm, yarn, pnpm, bun or npx appears: the whole package.json and .npmrc (lifecycle scripts such as
//   `npm install`'s, `script-shell`), the package.json of every folder word that has one (`npm --prefix sub ...`), and
//   the text of the package.json script run (`package.json scripts.build`, its `pre`/`post`), and what those run;
// - for `make`: every `-f` file and the Makefile.
// Not covered: redirection targets (`> out`) and the value of an output option (`-o`, `--out...`), so a build writing
// its output keeps its approval; what a covered script itself imports or calls; programs installed outside the
// repository (node, npm, node_modules, the system's), which are the user's.
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
/** Programs that read package.json and .npmrc (lifecycle scripts, `script-shell`) whatever their arguments. */
const PACKAGE_TOOLS = /^(npm|npx|yarn|pnpm|pnpx|bun|bunx)$/;
/** Options whose value is a file the command writes: data, not code (`-o dist/app.js`, `--outFile=x`). */
const OUTPUT_OPTION = /^(-o|--out[A-Za-z-]*|--output[A-Za-z-]*)$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

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
/** A word that reads as a file name (`build.js`, `t/run`), so a missing one is covered as missing. */
const looksLikeFile = (word: string) => /[./]/.test(word);

/** A command's words without its redirections (`> out`, `2>err.log`, `<in`): files read or written, not run. */
function withoutRedirections(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (/^\d*[<>]+[&|]?$/.test(words[i]))
      i++; // `>` `2>>` `<`: the next word is the file
    else if (!/^\d*[<>]/.test(words[i])) out.push(words[i]);
  }
  return out;
}

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
    .map(withoutRedirections)
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
  command(argv: readonly string[], depth = 0, cwd = this.root): void {
    if (depth > 4) return;
    this.everyWord(argv, cwd);
    let i = 0;
    while (i < argv.length && ASSIGNMENT.test(argv[i])) i++; // FOO=1 ./build.sh
    const program = argv[i];
    if (program === undefined) return;
    const name = base(program);
    if (program.includes('/')) this.file(program, true, cwd);
    if (WRAPPERS.test(name)) {
      let j = i + 1;
      while (j < argv.length && (argv[j].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[j]))) j++;
      this.command(argv.slice(j), depth + 1, cwd);
      return;
    }
    if (INTERPRETERS.test(name)) {
      for (let j = i + 1; j < argv.length; j++) {
        const w = argv[j];
        if (SHELLS.test(name) && /^-[a-z]*c[a-z]*$/.test(w)) {
          if (argv[j + 1] !== undefined) this.snippet(argv[j + 1], depth + 1, cwd); // sh -c '...', bash -lc '...'
          return;
        }
        if (INLINE_CODE.has(w)) return;
        if (CODE_FLAGS.has(w)) {
          if (argv[j + 1] !== undefined) this.file(argv[++j], false, cwd);
          continue;
        }
        if (w.startsWith('-') || (name === 'deno' && w === 'run')) continue;
        this.file(w, looksLikeFile(w), cwd); // `node build.js` missing: covered as missing; `bash -o errexit`: a value
        return;
      }
      return;
    }
    const script = scriptNamed(argv.slice(i));
    if (script) {
      this.script(script, depth);
      this.file(script, false, cwd); // `bun run build.ts`, `bun build.ts`: a file, not a script
    }
    if (/^g?make$/.test(name)) {
      this.makefile();
      for (let j = i + 1; j < argv.length; j++) {
        if (argv[j] === '-f' || argv[j] === '--file' || argv[j] === '--makefile') {
          if (argv[j + 1] !== undefined) this.file(argv[++j], true, cwd);
        } else if (/^-f./.test(argv[j])) this.file(argv[j].slice(2), true, cwd);
      }
    }
  }

  /** Every word naming an existing repository file (fail closed), and for package tools their package.json/.npmrc. */
  private everyWord(argv: readonly string[], cwd: string): void {
    const packageTool = argv.some((w) => PACKAGE_TOOLS.test(base(w)));
    if (packageTool) {
      this.file('package.json', true);
      this.file('.npmrc', true);
    }
    for (let j = 0; j < argv.length; j++) {
      if (OUTPUT_OPTION.test(argv[j])) {
        j++; // `-o dist/app.js`: what the command writes
        continue;
      }
      if (/^--?[^=]*=/.test(argv[j]) && OUTPUT_OPTION.test(argv[j].slice(0, argv[j].indexOf('=')))) continue;
      const word = argv[j].replace(/^--?[A-Za-z0-9][^=]*=/, '').replace(ASSIGNMENT, '');
      if (word === '') continue;
      for (const dir of cwd === this.root ? [this.root] : [this.root, cwd]) {
        this.file(word, false, dir);
        if (packageTool) this.file(path.join(path.resolve(dir, word), 'package.json'), false, dir, true);
      }
    }
  }

  snippet(text: string, depth: number, cwd = this.root): void {
    let dir = cwd;
    for (const argv of snippetCommands(text)) {
      if (argv[0] === 'cd' && argv[1] !== undefined && !argv[1].startsWith('-')) dir = path.resolve(dir, argv[1]);
      this.command(argv, depth, dir);
    }
  }

  /**
   * Records the repository file `word` names, resolved against `cwd`; `explicit`: recorded even while missing (its
   * appearing asks again); `folderPackage`: a folder word's package.json, covered only when there.
   */
  private file(word: string, explicit: boolean, cwd = this.root, folderPackage = false): void {
    const file = path.resolve(cwd, word);
    const rel = path.relative(this.top, file);
    if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return;
    if (folderPackage && !fs.existsSync(file)) return;
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
        this.snippet(text, depth + 1); // npm runs a script with sh, in the package's folder
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
