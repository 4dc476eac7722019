// Sync mode through a real git remote (docs/contract.md §13): `git daemon` (receive-pack on) serving bare repositories
// on 127.0.0.1; clones of them; the CLI from dist/ as a process of its own. Each figure is printed with its data size.
// The cost goals of sync (docs/contract.md §13, "What a write costs"; bench/syncCost.mjs), on the shared format
// `--format` names (1, 0.4.0's; 2 or 3 after `agentsync sync --upgrade-format`, said to be unavailable when the build
// writes another):
//  claim:   1. a confirmed claim at --open's first size, and with --finished more finished records: median, p99 and
//              largest, paired with `node -e 0` (alternating order each round), the ratios, and the ratio of the two;
//  growth:  2. what one confirmed write adds to the remote's objects/ (no gc; median, p99, largest over --writes writes
//              after --ledger-fill writes), at every --open size, with and without --finished;
//  fresh:   3. a fresh clone's first `agentsync sync` on a ref of --history-writes writes (built with git fast-import as
//              format-1 commits), bytes on the wire and time, against the same state in one commit;
//  gitprocs 4. the git processes one uncontended claim starts in the clone (a logging `git` first on PATH);
//  hooks:   5. `agentsync hook pre-tool-use` at --open's last size in sync mode, paired with `node -e 0`.
// Records are seeded through the product: written to a clone's .agentsync/handoffs.json, joined and pushed by
// `agentsync sync` (bench/syncSeed.mjs). A phase that outlasts --budget-s stops early and says so.
// Also, only when named in --only (the figures of the first sync build):
//  latency: a confirmed create and claim, on the direct link and through a delaying proxy (50 ms round trip): median
//           and p99 paired with `node -e 0`, and the round trips the link adds;
//  race:    8 clones racing on the same handoffs, then on their own: answers and confirmed claims per second;
//  history: --history-writes updateTodos through the protocol (one process), then a fresh fetch of the ref, direct and
//           through the proxy, with and without --depth=1.
// Needs `npm run build && npm run compile` first (dist/ and out/). Not part of the test run.
// Usage: node bench/sync-bench.mjs [--quick] [--format 1|2|3] [--open 1000,10000] [--finished 99000] [--writes 100]
//   [--ledger-fill 1000] [--history-writes 10000] [--rounds 31] [--budget-s 300] [--race-handoffs 40]
//   [--only claim,growth,fresh,gitprocs,hooks,latency,race,history]
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { median, percentile, ROOT } from './benchSupport.mjs';
import { claimFigure, freshCloneFigure, gitProcessFigure, growthFigure, hookFigure, Workspaces } from './syncCost.mjs';
import { commitSyncOn, FormatUnavailable, upgradeFormat } from './syncSeed.mjs';

const require = createRequire(import.meta.url);
const harness = path.join(ROOT, 'out/test/process/sync/netHarness.js');
if (!fs.existsSync(harness)) throw new Error(`${harness} is missing: run npx tsc -p . first`);
if (!fs.existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/cli.js is missing: run node esbuild.mjs first');
const { startGitDaemon, startDelayProxy } = require(harness);

const QUICK = process.argv.includes('--quick');
const given = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
function option(name, full, quick, min) {
  const v = Number(given(name) ?? (QUICK ? quick : full));
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} takes a whole number >= ${min}`);
  return v;
}
const ROUNDS = option('rounds', 31, 5, 5);
const STARTED = performance.now();
const RACE_HANDOFFS = option('race-handoffs', 40, 8, 8);
const HISTORY_WRITES = option('history-writes', 10_000, 200, 100);
const FINISHED = option('finished', 99_000, 1_000, 0);
const WRITES = option('writes', 100, 5, 1);
const LEDGER_FILL = option('ledger-fill', 1000, 10, 0);
const BUDGET_S = option('budget-s', 300, 15, 1);
const FORMAT = option('format', 1, 1, 1);
if (FORMAT > 3) throw new Error("--format takes 1 (0.4.0's shared format), or 2 or 3 (after agentsync sync --upgrade-format)");
const OPEN = (given('open') ?? (QUICK ? '100' : '1000,10000')).split(',').map(Number);
if (!OPEN.every((n) => Number.isInteger(n) && n >= 60)) throw new Error('--open takes sizes >= 60, comma-separated, e.g. 1000,10000');
const SECTIONS = ['claim', 'growth', 'fresh', 'gitprocs', 'hooks', 'latency', 'race', 'history'];
const ONLY = (given('only') ?? 'claim,growth,fresh,gitprocs,hooks').split(',');
if (!ONLY.every((n) => SECTIONS.includes(n))) throw new Error(`--only takes sections of ${SECTIONS.join(', ')}, comma-separated`);
const want = (n) => ONLY.includes(n);
const CLONES = 8;
const DELAY_MS = 25; // each way: a 50 ms round trip
const REF = 'refs/agentsync/state';
const CLI = path.join(ROOT, 'bin/agentsync.js');
const RUNNER = path.join(ROOT, 'bench/sync-runner.cjs');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-sync-bench-'));
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-sync-bench-logs-'));
// Every clone's `agentsync sync --enable` goes to a file of this run, never the user's own consents.
process.env.AGENTSYNC_SYNC_CONSENT_FILE = path.join(logs, 'sync-consent.json');
const servers = [];
process.on('exit', () => {
  for (const s of servers) s.stop();
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(logs, { recursive: true, force: true });
});

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}
const git = (args, cwd) => run('git', args, { cwd });
const ms = (f) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** "ok 16, already_claimed 110, remote_busy 2": the answers counted by outcome. */
function tally(answers) {
  const counts = new Map();
  for (const a of answers) {
    const k = a.ok === true ? 'ok' : String(a.reason);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

/** A confirmed write's answer, or an error saying what came back instead (a figure is never printed for less). */
function confirmed(stdout, what) {
  const a = JSON.parse(stdout.trim().split('\n').pop());
  if (a.ok !== true || a.data?.sync?.confirmed !== true) throw new Error(`${what} was not confirmed by the remote: ${stdout}`);
  return a;
}

function cliJson(dir, args) {
  return run(process.execPath, [CLI, '--dir', dir, '--json', ...args]);
}

const daemon = await startGitDaemon({
  base: work,
  host: '127.0.0.1',
  port: await freePort(),
  logFile: path.join(logs, 'daemon.log'),
  lifetimeS: 7200,
});
servers.push(daemon);
const url = (port, repo = 'repo') => `git://127.0.0.1:${port}/${repo}.git`;
console.log(`sync bench: git ${git(['--version']).trim().replace('git version ', '')}, node ${process.version}, ${os.cpus().length} cores`);
console.log(`remote: git daemon on 127.0.0.1:${daemon.port} serving bare repositories under ${work}; shared format ${FORMAT}`);

// --- the cost goals (bench/syncCost.mjs) ----------------------------------------------------------------------------
const costs = {
  base: work,
  work,
  url: (name) => url(daemon.port, name),
  daemonPort: daemon.port,
  format: FORMAT,
  rounds: ROUNDS,
  writes: WRITES,
  ledgerFill: LEDGER_FILL,
  historyWrites: HISTORY_WRITES,
  historyHeld: QUICK ? 10 : 50,
  budgetS: BUDGET_S,
};
try {
  if (FORMAT > 1) {
    // Asked once before anything is built: a build that does not write this format says so and measures nothing.
    const probe = new Workspaces({ ...costs, format: 1 }).get(60, 0);
    upgradeFormat(probe.ws, FORMAT);
  }
  const spaces = new Workspaces(costs);
  if (want('claim') || want('growth') || want('gitprocs') || want('hooks')) {
    console.log(`\nseeding (records written to the clone's handoffs.json, joined and pushed by agentsync sync):`);
  }
  const [small, large] = [OPEN[0], OPEN[OPEN.length - 1]];
  const timed = async (name, f) => {
    if (!want(name)) return;
    const t0 = performance.now();
    await f();
    console.log(`   (${name}: ${((performance.now() - t0) / 1000).toFixed(0)} s with its seeding)`);
  };
  await timed('claim', () => claimFigure(costs, spaces.get(small, 0), spaces.get(small, FINISHED)));
  await timed('gitprocs', () => gitProcessFigure(costs, spaces.get(small, 0)));
  await timed('growth', () =>
    growthFigure(
      costs,
      OPEN.flatMap((open) => [spaces.get(open, 0), spaces.get(open, FINISHED)]),
    ),
  );
  await timed('hooks', () => hookFigure(costs, spaces.get(large, 0)));
  await timed('fresh', () => freshCloneFigure(costs));
} catch (e) {
  if (!(e instanceof FormatUnavailable)) throw e;
  console.log(`\n${e.message}: nothing measured for --format ${FORMAT}`);
  process.exit(0);
}

// --- the figures of the first sync build: one seeded repository, clones of it ---------------------------------------
const agents = ['bench', 'hist', ...Array.from({ length: CLONES }, (_, c) => `racer-${c}`)];
const firstBuild = want('latency') || want('race') || want('history');
const bare = path.join(work, 'repo.git');
let proxy;
if (firstBuild) {
  git(['init', '--bare', '--quiet', '--initial-branch=main', bare]);
  const seed = path.join(work, 'seed');
  fs.mkdirSync(seed);
  git(['init', '--quiet', '-b', 'main'], seed);
  commitSyncOn(seed, agents, bare);
  proxy = await startDelayProxy({
    host: '127.0.0.1',
    port: 0,
    target: `127.0.0.1:${daemon.port}`,
    delayMs: DELAY_MS,
    logFile: path.join(logs, 'proxy.log'),
    lifetimeS: 7200,
  });
  servers.push(proxy);
  console.log(`\nproxy 127.0.0.1:${proxy.port} adds ${DELAY_MS} ms each way (${2 * DELAY_MS} ms round trip)`);
}
let upgraded = false;
const clone = (name, port) => {
  const dir = path.join(work, name);
  git(['clone', '--quiet', url(port), dir]);
  run(process.execPath, [CLI, '--dir', dir, 'sync', '--enable']);
  if (FORMAT > 1 && !upgraded) upgraded = Boolean(upgradeFormat(dir, FORMAT)); // once: the ref is shared by every clone
  return dir;
};

// --- latency: one confirmed create and claim, direct and through the proxy -----------------------------------------------
const fmt = (xs) => `median ${median(xs).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms`;
if (want('latency')) {
  // Both links in every round (direct, then proxy, or the other way), with node -e 0 between, so a change in the
  // machine's load shows in both; what the link adds is the median of the per-round differences.
  const links = [
    { name: '127.0.0.1', dir: clone('lat-direct', daemon.port) },
    { name: `${2 * DELAY_MS} ms RTT`, dir: clone('lat-proxy', proxy.port) },
  ];
  for (const l of links) l.t = { node: [], create: [], claim: [], fetch: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const l of r % 2 === 0 ? links : [...links].reverse()) {
      const { t, dir } = l;
      t.node.push(ms(() => run(process.execPath, ['-e', '0'])));
      let id;
      const create = ['create', '--from', 'codex', '--to', 'claude', '--summary', `lat ${r}`];
      t.create.push(ms(() => (id = confirmed(cliJson(dir, create), 'create').data.handoff.handoff_id)));
      t.claim.push(ms(() => confirmed(cliJson(dir, ['claim', id, '--agent', 'bench']), 'claim')));
      // git's own floor on this link: a fetch of the ref that brings nothing new (what every write starts with).
      t.fetch.push(ms(() => git(['fetch', '--quiet', '--no-tags', 'origin', `+${REF}:refs/bench/state`], dir)));
    }
  }
  for (const { name, dir, t } of links) {
    const storeText = fs.readFileSync(path.join(dir, '.agentsync/handoffs.json'), 'utf8');
    const count = JSON.parse(storeText).handoffs.length;
    console.log(
      `\nlatency: confirmed writes via ${name}, ${ROUNDS} rounds (the shared store grows to ${count} handoffs, ${(storeText.length / 1024).toFixed(0)} KiB):`,
    );
    const base = median(t.node);
    console.log(`   node -e 0          ${fmt(t.node)}`);
    console.log(`   agentsync create   ${fmt(t.create)}   ratio to node -e 0: ${(median(t.create) / base).toFixed(2)}x`);
    console.log(`   agentsync claim    ${fmt(t.claim)}   ratio to node -e 0: ${(median(t.claim) / base).toFixed(2)}x`);
    console.log(`   git fetch of the ref alone, up to date: ${fmt(t.fetch)}`);
  }
  console.log(
    "   (each create follows the other clone's writes: a refused push, a fetch, a push; each claim follows its clone's own create: one push)",
  );
  const [direct, far] = links.map((l) => l.t);
  for (const op of ['create', 'claim', 'fetch']) {
    const extra = median(far[op].map((x, r) => x - direct[op][r]));
    console.log(
      `   ${op}: the ${2 * DELAY_MS} ms link adds ${extra.toFixed(0)} ms = ${(extra / (2 * DELAY_MS)).toFixed(1)} round trips (median of the paired rounds)`,
    );
  }
}

// --- 2. 8 clones racing ------------------------------------------------------------------------------------------
/** Starts one runner per clone with its jobs, releases them together, returns [ms, answers per clone]. */
function race(dirs, jobsFor) {
  const start = path.join(work, `go-${Date.now()}`);
  const procs = dirs.map((dir, c) => {
    const jobsFile = path.join(work, `jobs-${c}-${Date.now()}.json`);
    fs.writeFileSync(jobsFile, JSON.stringify(jobsFor(c, dir)));
    return spawnAsync(process.execPath, [RUNNER, start, jobsFile]);
  });
  return Promise.all(procs.map((p) => p.ready)).then(async () => {
    const t0 = performance.now();
    fs.writeFileSync(start, 'go');
    const outs = await Promise.all(procs.map((p) => p.done));
    const wall = performance.now() - t0;
    return [
      wall,
      outs.map((o) =>
        o
          .split('\n')
          .filter((l) => /^\d/.test(l))
          .map((l) => JSON.parse(l.slice(l.indexOf(' ') + 1))),
      ),
    ];
  });
}

function spawnAsync(cmd, args) {
  const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let readyResolve;
  const ready = new Promise((r) => (readyResolve = r));
  p.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    if (out.includes('READY\n')) readyResolve();
  });
  const done = new Promise((resolve, reject) =>
    p.on('close', (code) =>
      code === 0 || code === 1 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${out}`)),
    ),
  );
  return { ready, done };
}

if (want('race')) {
  const raceDirs = Array.from({ length: CLONES }, (_, c) => clone(`race-${c}`, daemon.port));
  const createIds = (n, label) =>
    Array.from(
      { length: n },
      (_, k) =>
        confirmed(cliJson(raceDirs[0], ['create', '--from', 'codex', '--to', 'claude', '--summary', `${label} ${k}`]), 'create').data
          .handoff.handoff_id,
    );
  {
    const ids = createIds(RACE_HANDOFFS, 'race');
    const [wall, answers] = await race(raceDirs, (c, dir) =>
      ids.map((_, k) => ({
        argv: ['--dir', dir, '--json', 'claim', ids[(k + c * Math.floor(RACE_HANDOFFS / CLONES)) % RACE_HANDOFFS], '--agent', `racer-${c}`],
      })),
    );
    const all = answers.flat();
    const won = all.filter((a) => a.ok === true);
    const winners = new Map();
    for (const a of won) winners.set(a.data.handoff.handoff_id, (winners.get(a.data.handoff.handoff_id) ?? 0) + 1);
    if ([...winners.values()].some((n) => n > 1)) throw new Error(`a handoff had two winners: ${JSON.stringify([...winners])}`);
    console.log(
      `\nrace: ${CLONES} clones on 127.0.0.1 each claiming the same ${RACE_HANDOFFS} handoffs (${all.length} claims, one process per clone):`,
    );
    console.log(
      `   ${(wall / 1000).toFixed(2)} s: ${((all.length * 1000) / wall).toFixed(1)} answers/s, ` +
        `${((won.length * 1000) / wall).toFixed(1)} confirmed claims/s; ` +
        `answers: ${tally(all)}`,
    );
  }
  {
    const per = Math.floor(RACE_HANDOFFS / CLONES);
    const ids = createIds(per * CLONES, 'own');
    const [wall, answers] = await race(raceDirs, (c, dir) =>
      ids.slice(c * per, (c + 1) * per).map((id) => ({ argv: ['--dir', dir, '--json', 'claim', id, '--agent', `racer-${c}`] })),
    );
    const all = answers.flat();
    const ok = all.filter((a) => a.ok === true && a.data?.sync?.confirmed === true);
    const attempts = ok.map((a) => a.data.sync.attempts ?? 0);
    console.log(
      `   each clone claiming ${per} handoffs of its own (${all.length} pushes to one ref): ${(wall / 1000).toFixed(2)} s, ` +
        `${((ok.length * 1000) / wall).toFixed(1)} confirmed claims/s; ` +
        `attempts per confirmed claim median ${median(attempts)}, max ${Math.max(...attempts)}; ` +
        `answers: ${tally(all)}`,
    );
  }
}

// --- 3. the ref's history after N writes ---------------------------------------------------------------------------
if (want('history')) {
  const dir = clone('history', daemon.port);
  const ids = Array.from({ length: 50 }, (_, k) => {
    const id = confirmed(cliJson(dir, ['create', '--from', 'codex', '--to', 'claude', '--summary', `history ${k}`]), 'create').data.handoff
      .handoff_id;
    confirmed(cliJson(dir, ['claim', id, '--agent', 'hist']), 'claim');
    return id;
  });
  const jobs = Array.from({ length: HISTORY_WRITES }, (_, n) => ({
    argv: ['--dir', dir, '--json', 'request', '-'],
    stdin: JSON.stringify({
      action: 'updateTodos',
      handoffId: ids[n % ids.length],
      agent: 'hist',
      todos: [{ id: '1', content: `step ${n}`, status: 'in_progress', priority: 'medium' }],
    }),
  }));
  const [wall, [answers]] = await race([dir], () => jobs);
  const bad = answers.find((a) => a.ok !== true || a.data?.sync?.confirmed !== true);
  if (bad) throw new Error(`a history write was not confirmed: ${JSON.stringify(bad)}`);
  const commits = Number(git(['--git-dir', bare, 'rev-list', '--count', REF]));
  const stateBytes = Number(git(['--git-dir', bare, 'cat-file', '-s', `${REF}:handoffs.json`]));
  console.log(
    `\nhistory: ${HISTORY_WRITES} writes (updateTodos on 50 claimed handoffs) through the protocol, one process: ` +
      `${(wall / 1000).toFixed(1)} s, ${((HISTORY_WRITES * 1000) / wall).toFixed(1)} writes/s`,
  );
  console.log(`   the ref: ${commits} commits; its handoffs.json ${(stateBytes / 1024).toFixed(0)} KiB`);
  for (const [link, port] of [
    ['127.0.0.1', daemon.port],
    [`${2 * DELAY_MS} ms RTT`, proxy.port],
  ]) {
    for (const depth of [[], ['--depth=1']]) {
      const fresh = path.join(work, `fresh-${port}-${depth.length}`);
      git(['init', '--quiet', '--bare', fresh]);
      const t = ms(() => git(['--git-dir', fresh, '-c', 'fetch.unpackLimit=1', 'fetch', '--quiet', ...depth, url(port), `+${REF}:${REF}`]));
      const sizePack = /size-pack: (\d+)/.exec(git(['--git-dir', fresh, 'count-objects', '-v']))[1];
      console.log(
        `   a fresh clone's fetch of the ref via ${link}${depth.length ? ' (--depth=1)' : ''}: ` +
          `${(t / 1000).toFixed(2)} s, pack ${sizePack} KiB (git count-objects size-pack)`,
      );
    }
  }
}
console.log(`\nsync bench done in ${((performance.now() - STARTED) / 1000).toFixed(0)} s`);
process.exit(0);
