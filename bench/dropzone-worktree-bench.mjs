// The drop zone from a linked git worktree (docs/contract.md §14 item 3): a request file written into a linked
// worktree's .agentsync/requests/ is answered in that worktree's .agentsync/responses/ by `agentsync watch` running
// in the main checkout. A clone whose committed store holds OPEN queued handoffs (default 1,000; the last created by
// the CLI), a linked worktree beside it, one watcher child; N requests (default 100, at least 50) one after another,
// alternating a claim and a release of one handoff (each writes the record), each timed from the rename of the
// request into requests/ until its response parses: median, p99 and max, with the store's size.
// Run `node esbuild.mjs` first (npm run bench does).
// Usage: node bench/dropzone-worktree-bench.mjs [--requests N] [--open N]
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { percentile, ROOT } from './benchSupport.mjs';
import { fillStore } from './benchStores.mjs';

const CLI = path.join(ROOT, 'bin', 'agentsync.js');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const N = arg('--requests', 100);
const OPEN = arg('--open', 1000);
if (!Number.isInteger(N) || N < 50) throw new Error('--requests takes a whole number >= 50 (p99 needs them)');
if (!Number.isInteger(OPEN) || OPEN < 1) throw new Error('--open takes a whole number >= 1');
if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run node esbuild.mjs first');

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
for (const k of ['CLAUDE_CODE_SESSION_ID', 'CODEX_THREAD_ID', 'AGENTSYNC_AGENT']) delete ENV[k];

function run(cwd, command, args) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: ENV });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The contract: the whole file written beside requests/, then renamed in. */
function drop(worktree, name, body) {
  const tmp = path.join(worktree, '.agentsync', `.${name}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(body));
  fs.renameSync(tmp, path.join(worktree, '.agentsync', 'requests', name));
}

/** The response to request `id` in `worktree`, once it parses; fs.watch on the folder, plus a 2 ms poll. */
function answer(worktree, id, timeoutMs = 30_000) {
  const dir = path.join(worktree, '.agentsync', 'responses');
  const file = path.join(dir, `${id}.json`);
  return new Promise((resolve, reject) => {
    let done = false;
    const check = () => {
      if (done) return;
      let obj;
      try {
        obj = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        return;
      }
      done = true;
      cleanup();
      resolve(obj);
    };
    fs.mkdirSync(dir, { recursive: true });
    const watcher = fs.watch(dir, check);
    const poll = setInterval(check, 2);
    const timer = setTimeout(() => {
      done = true;
      cleanup();
      reject(new Error(`no answer in ${file} after ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => (watcher.close(), clearInterval(poll), clearTimeout(timer));
    check();
  });
}

const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-dz-wt-bench-'));
const main = path.join(parent, 'main');
const linked = path.join(parent, 'agent-claude');
fs.mkdirSync(main);
run(main, 'git', ['init', '-q', '-b', 'main']);
run(main, process.execPath, [CLI, 'init']);
fillStore(path.join(main, '.agentsync'), OPEN - 1);
const id = run(main, process.execPath, [CLI, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'bench', '--quiet']);
run(main, 'git', ['add', '-A']);
run(main, 'git', ['commit', '-q', '-m', 'agentsync']);
run(main, 'git', ['worktree', 'add', '-q', '-b', 'agent-claude', linked]);
fs.mkdirSync(path.join(linked, '.agentsync', 'requests'), { recursive: true });
const record = path.join(main, '.git', 'agentsync', '@', 'handoffs.json');

const watcher = spawn(process.execPath, [CLI, 'watch'], { cwd: main, env: ENV, stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve, reject) => {
  watcher.stdout.on('data', (d) => String(d).includes('watching') && resolve());
  watcher.once('exit', (code) => reject(new Error(`agentsync watch exited ${code}`)));
});

const times = [];
let refused = 0;
for (let i = -2; i < N; i++) {
  // Two unmeasured requests first: the watcher's first batch loads the store.
  const claim = i % 2 === 0;
  const action = claim ? 'claimHandoff' : 'transitionHandoff';
  const requestId = `wt-${i + 2}-${claim ? 'claim' : 'release'}`;
  const body = { action, request_id: requestId, handoffId: id, agent: 'claude', ...(claim ? {} : { to: 'queued' }) };
  const t0 = now();
  drop(linked, `${requestId}.json`, body);
  const r = await answer(linked, requestId);
  if (i >= 0) times.push(now() - t0);
  if (!r.ok && refused++ === 0) console.log(`first refusal (${action}): ${r.reason}: ${r.message}`);
  await sleep(1);
}
watcher.kill('SIGTERM');
await new Promise((r) => watcher.once('exit', r));

const kb = (file) => (fs.statSync(file).size / 1024).toFixed(0);
const fmt = (x) => x.toFixed(1).padStart(7);
console.log(`drop zone from a linked worktree, answered by \`agentsync watch\` in the main checkout; node ${process.version}`);
console.log(
  `store: ${OPEN} open, the record ${kb(record)} KB (the clone's home), the main worktree's copy ${kb(path.join(main, '.agentsync', 'handoffs.json'))} KB`,
);
console.log(`requests: ${N} sequential, claim and release alternating (every one writes the record); ${refused} refused`);
console.log(
  `request file renamed in → response parsed (ms): median ${fmt(percentile(times, 50))}  p99 ${fmt(percentile(times, 99))}  max ${fmt(Math.max(...times))}`,
);
console.log(`linked worktree's git status after the runs: "${run(linked, 'git', ['status', '--porcelain'])}" (empty: clean)`);
fs.rmSync(parent, { recursive: true, force: true });
if (refused) process.exitCode = 1;
