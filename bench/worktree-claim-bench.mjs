// The CLI's claim in a linked git worktree (docs/contract.md §14: finding the worktree and the clone's home reads
// files only, so the CLI's cost goal, at most 2.0× `node -e 0`, holds there too). A clone whose committed store
// holds OPEN queued handoffs (default 1,000, the last created by the CLI) and, with --archived N, N finished ones in
// the archive's month files; a linked worktree beside it. Each measured run is `agentsync claim` then `agentsync
// release` of one handoff, both in the linked worktree (so every claim finds it queued and writes), against
// `node -e 0` twice, paired by farm-bench (on PATH), A and B in turn. The same pair in the main checkout is printed
// after it. It first builds dist/ as `npm pack` ships it (`node esbuild.mjs --production`); --no-build times dist/
// as it is. Usage: node bench/worktree-claim-bench.mjs [--runs N] [--open N] [--archived N] [--no-build]
// (--runs: farm-bench's -n, default 21)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './benchSupport.mjs';
import { fillStore } from './benchStores.mjs';

const CLI = path.join(ROOT, 'bin', 'agentsync.js');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = arg('--runs', 21);
const OPEN = arg('--open', 1000);
const ARCHIVED = arg('--archived', 0);
if (!Number.isInteger(RUNS) || RUNS < 5 || RUNS > 100) throw new Error('--runs takes a whole number from 5 to 100');
if (!Number.isInteger(OPEN) || OPEN < 1) throw new Error('--open takes a whole number >= 1');
if (!Number.isInteger(ARCHIVED) || ARCHIVED < 0) throw new Error('--archived takes a whole number >= 0');
if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'esbuild.mjs'), '--production'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`node esbuild.mjs --production exited ${built.status}`);
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };

function run(cwd, command, args) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: GIT_ENV });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-wt-bench-'));
const main = path.join(parent, 'main');
const linked = path.join(parent, 'agent-codex');
fs.mkdirSync(main);
run(main, 'git', ['init', '-q', '-b', 'main']);
run(main, process.execPath, [CLI, 'init']);
fillStore(path.join(main, '.agentsync'), OPEN - 1, ARCHIVED);
const id = run(main, process.execPath, [CLI, 'create', '--from', 'claude', '--to', 'codex', '--summary', 'bench', '--quiet']);
run(main, 'git', ['add', '-A']);
run(main, 'git', ['commit', '-q', '-m', 'agentsync']);
run(main, 'git', ['worktree', 'add', '-q', '-b', 'agent-codex', linked]);
// The first run seeds the home and renders what a fresh clone lacks: not part of what an agent pays per call.
run(linked, process.execPath, [CLI, 'list']);
const kb = (file) => `${(fs.statSync(file).size / 1024).toFixed(0)} KB`;
const sizes = `store: ${OPEN} open (${kb(path.join(main, '.agentsync', 'handoffs.json'))}), ${ARCHIVED} archived`;
console.log(`${sizes}; dist/cli.js ${kb(path.join(ROOT, 'dist', 'cli.js'))}`);

const node = process.execPath;
const pair = (dir) =>
  `cd "${dir}" && "${node}" "${CLI}" claim ${id} --agent codex >/dev/null && "${node}" "${CLI}" release ${id} --agent codex >/dev/null`;
const floor = `sh -c '"${node}" -e 0 && "${node}" -e 0'`;

for (const [where, dir] of [
  ['linked worktree', linked],
  ['main checkout', main],
]) {
  console.log(`\n== claim + release in the ${where} (A) vs node -e 0 twice (B) ==`);
  const args = ['-n', String(RUNS), '--warmup', '2', '--timeout', '900', '--vs', floor, '--', 'sh', '-c', pair(dir)];
  const r = spawnSync('farm-bench', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout);
  if (r.status !== 0) throw new Error(`farm-bench exited ${r.status}`);
}
console.log(`\nlinked worktree's git status after the runs: "${run(linked, 'git', ['status', '--porcelain'])}" (empty: clean)`);
fs.rmSync(parent, { recursive: true, force: true });
