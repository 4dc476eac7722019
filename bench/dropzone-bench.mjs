// Drop-zone benchmark (docs/contract.md §8, §12): a real `agentsync watch` child on a 1,000-handoff store.
//   1. request.json → result.json latency, one writer, sequential (AgentSync 0.3's single drop zone)
//   2. requests/ → responses/<id>.json latency, one writer, sequential
//   3. throughput with 8 writer processes × 125 requests into requests/ (requests/s, lost)
// Every request is a createHandoff with a unique summary; at the end the store is checked for exactly one handoff
// per request. Run `node esbuild.mjs` first (npm run bench does). Usage: node bench/dropzone-bench.mjs [--quick]
import { fork, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { ulid } = require('ulid');
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, '..', 'bin', 'agentsync.js');

const quick = process.argv.includes('--quick');
const SEED = 1000;
const SEQ_N = quick ? 60 : 300;
const WRITERS = 8;
const PER_WRITER = 125;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function createRequest(summary, requestId) {
  return {
    action: 'createHandoff',
    request_id: requestId,
    handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary, notes: 'bench', files: ['src/bench.ts'] },
  };
}

/** The contract: write the whole file under a temp name outside requests/, then rename it in. */
function dropRequest(dataDir, target, obj) {
  const tmp = path.join(dataDir, `.bench-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(obj));
  fs.renameSync(tmp, target);
}

// ---------------------------------------------------------------- seeding
function seedStore(root) {
  const day = '20260101';
  const ts = '2026-01-01T00:00:00.000Z';
  const handoffs = [];
  for (let i = 1; i <= SEED; i++) {
    handoffs.push({
      handoff_id: `HO-${day}-${String(i).padStart(3, '0')}`,
      task_id: `BENCH-${i}`,
      from_agent: 'codex',
      to_agents: ['claude'],
      owner_mode: 'single',
      status: 'queued',
      required_capabilities: [],
      summary: `Seeded handoff ${i}: review the change to module ${i % 37}`,
      notes: 'Check the regression risk in the token refresh path before merge.',
      no_handoff_reason: null,
      files: [`src/module${i % 37}.ts`, `test/module${i % 37}.test.ts`],
      branch: 'main',
      commit: 'abc1234',
      prior_attempts: 0,
      created_at: ts,
      updated_at: ts,
      state_history: [{ status: 'queued', agent: 'codex', timestamp: ts, reason: 'created' }],
      uid: ulid(Date.parse(ts)),
      rev: 1,
    });
  }
  fs.writeFileSync(path.join(root, '.agentsync', 'handoffs.json'), JSON.stringify({ version: 1, handoffs }, null, 2) + '\n');
}

// ---------------------------------------------------------------- waiting for answers
/** Resolves when `file` exists and `accept(parsed)` holds; fs.watch on its folder, plus a 2 ms poll as a fallback. */
function waitForFile(file, accept, timeoutMs = 10_000) {
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
      if (!accept(obj)) return;
      done = true;
      cleanup();
      resolve(obj);
    };
    const watcher = fs.watch(path.dirname(file), check);
    const poll = setInterval(check, 2);
    const timer = setTimeout(() => {
      done = true;
      cleanup();
      reject(new Error(`no answer in ${file} after ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => {
      watcher.close();
      clearInterval(poll);
      clearTimeout(timer);
    };
    check();
  });
}

function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, median: q(0.5), p99: q(0.99), max: s[s.length - 1] };
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

// ---------------------------------------------------------------- phases
async function latencySingle(root) {
  const dataDir = path.join(root, '.agentsync');
  const result = path.join(dataDir, 'result.json');
  const times = [];
  for (let i = 0; i < SEQ_N; i++) {
    const id = `single-${i}-${ulid()}`;
    const t0 = now();
    dropRequest(dataDir, path.join(dataDir, 'request.json'), createRequest(`request.json #${i}`, id));
    const r = await waitForFile(result, (o) => o.request_id === id);
    times.push(now() - t0);
    if (!r.ok) throw new Error(`request.json #${i} refused: ${r.reason} ${r.message}`);
  }
  return stats(times);
}

async function latencyQueue(root) {
  const dataDir = path.join(root, '.agentsync');
  const times = [];
  for (let i = 0; i < SEQ_N; i++) {
    const id = `queue-${i}-${ulid()}`;
    const t0 = now();
    dropRequest(dataDir, path.join(dataDir, 'requests', `seq-${i}.json`), createRequest(`requests/ #${i}`, id));
    const r = await waitForFile(path.join(dataDir, 'responses', `${id}.json`), () => true);
    times.push(now() - t0);
    if (!r.ok) throw new Error(`requests/ #${i} refused: ${r.reason} ${r.message}`);
  }
  return stats(times);
}

async function throughput(root) {
  const writers = [];
  for (let w = 0; w < WRITERS; w++) {
    const child = fork(fileURLToPath(import.meta.url), ['--writer', root, String(w), String(PER_WRITER)], { stdio: 'inherit' });
    const ready = new Promise((r) => child.once('message', r));
    const ids = new Promise((r) => child.on('message', (m) => m && m.ids && r(m.ids)));
    writers.push({ child, ready, ids });
  }
  await Promise.all(writers.map((w) => w.ready));
  const t0 = now();
  for (const w of writers) w.child.send('go');
  const ids = (await Promise.all(writers.map((w) => w.ids))).flat();
  const writtenMs = now() - t0;
  const responses = path.join(root, '.agentsync', 'responses');
  const want = new Set(ids.map((id) => `${id}.json`));
  const deadline = Date.now() + 60_000;
  let have = 0;
  while (Date.now() < deadline) {
    have = fs.readdirSync(responses).filter((n) => want.has(n)).length;
    if (have === want.size) break;
    await sleep(5);
  }
  const totalMs = now() - t0;
  let refused = 0;
  for (const n of want) {
    try {
      if (!JSON.parse(fs.readFileSync(path.join(responses, n), 'utf8')).ok) refused++;
    } catch {
      /* counted as lost below */
    }
  }
  return { requests: ids.length, writtenMs, totalMs, lost: want.size - have, refused, perSecond: (ids.length / totalMs) * 1000 };
}

function checkStore(root) {
  const store = JSON.parse(fs.readFileSync(path.join(root, '.agentsync', 'handoffs.json'), 'utf8'));
  const summaries = store.handoffs.map((h) => h.summary).filter((s) => !s.startsWith('Seeded handoff'));
  return { total: store.handoffs.length, created: summaries.length, duplicates: summaries.length - new Set(summaries).size };
}

async function startWatcher(root) {
  const watcher = spawn(process.execPath, [CLI, '--dir', root, 'watch'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    watcher.stdout.on('data', (d) => String(d).includes('watching') && resolve());
    watcher.once('exit', (code) => reject(new Error(`agentsync watch exited ${code}`)));
  });
  return watcher;
}

async function main() {
  if (!fs.existsSync(path.join(HERE, '..', 'dist', 'cli.js'))) {
    console.error('dist/cli.js is missing: run `node esbuild.mjs` first (npm run bench does).');
    process.exit(2);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-dzbench-'));
  spawnSyncOk(['--dir', root, 'init']);
  // Each phase starts from the same 1,000-handoff store (every request creates one, so the store grows during a phase).
  const phase = async (run) => {
    seedStore(root);
    const watcher = await startWatcher(root);
    await latencyQueueWarm(root); // the first request pays for loading the store; not measured
    const result = await run(root);
    watcher.kill('SIGTERM');
    await new Promise((r) => watcher.once('exit', r));
    return { result, store: checkStore(root) };
  };
  const storeBytes = (seedStore(root), fs.statSync(path.join(root, '.agentsync', 'handoffs.json')).size);
  const { result: single, store: s1 } = await phase(latencySingle);
  const { result: queue, store: s2 } = await phase(latencyQueue);
  const { result: tp, store: s3 } = await phase(throughput);
  const store = {
    created: s1.created + s2.created + s3.created,
    duplicates: s1.duplicates + s2.duplicates + s3.duplicates,
    expected: 3 + 2 * SEQ_N + WRITERS * PER_WRITER,
    maxTotal: Math.max(s1.total, s2.total, s3.total),
  };

  const fmt = (x) => x.toFixed(1).padStart(7);
  console.log(`AgentSync drop-zone benchmark — node ${process.version}, ${os.cpus().length} CPUs, ${os.platform()}`);
  console.log(
    `store: each phase starts from ${SEED} seeded handoffs (${(storeBytes / 1024).toFixed(0)} KiB handoffs.json) and grows by its requests ` +
      `(largest: ${store.maxTotal}); one \`agentsync watch\` child per phase`,
  );
  console.log('');
  console.log('| scenario                                   |     n | median ms |  p99 ms |  max ms |');
  console.log('|--------------------------------------------|-------|-----------|---------|---------|');
  console.log(
    `| request.json → result.json (1 writer, seq) | ${String(single.n).padStart(5)} |   ${fmt(single.median)} | ${fmt(single.p99)} | ${fmt(single.max)} |`,
  );
  console.log(
    `| requests/ → responses/ (1 writer, seq)     | ${String(queue.n).padStart(5)} |   ${fmt(queue.median)} | ${fmt(queue.p99)} | ${fmt(queue.max)} |`,
  );
  console.log('');
  console.log('| throughput                                 | requests | written in ms | all answered in ms |  req/s | lost | refused |');
  console.log('|--------------------------------------------|----------|---------------|--------------------|--------|------|---------|');
  console.log(
    `| ${WRITERS} writer processes × ${PER_WRITER} into requests/     | ${String(tp.requests).padStart(8)} | ${fmt(tp.writtenMs).padStart(13)} | ` +
      `${fmt(tp.totalMs).padStart(18)} | ${tp.perSecond.toFixed(0).padStart(6)} | ${String(tp.lost).padStart(4)} | ` +
      `${String(tp.refused).padStart(7)} |`,
  );
  console.log('');
  console.log(`store check: ${store.created} handoffs created by ${store.expected} requests, ${store.duplicates} duplicates`);
  console.log(`aims: median ≤ 10 ms, p99 ≤ 50 ms, ≥ 300 req/s, 0 lost`);
  fs.rmSync(root, { recursive: true, force: true });
  if (tp.lost || store.duplicates || store.created !== store.expected) process.exitCode = 1;
}

async function latencyQueueWarm(root) {
  const dataDir = path.join(root, '.agentsync');
  const id = `warm-${ulid()}`;
  dropRequest(dataDir, path.join(dataDir, 'requests', 'warm.json'), createRequest('warm-up', id));
  await waitForFile(path.join(dataDir, 'responses', `${id}.json`), () => true);
}

function spawnSyncOk(args) {
  const r = require('node:child_process').spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`agentsync ${args.join(' ')}: ${r.stderr}`);
}

// ---------------------------------------------------------------- writer child (phase 3)
function runWriter() {
  const [, , , dir, index, count] = process.argv;
  const dataDir = path.join(dir, '.agentsync');
  process.on('message', (m) => {
    if (m !== 'go') return;
    const ids = [];
    for (let i = 0; i < Number(count); i++) {
      const id = `bench-w${index}-${i}-${ulid()}`;
      dropRequest(dataDir, path.join(dataDir, 'requests', `w${index}-${i}.json`), createRequest(`throughput w${index} #${i}`, id));
      ids.push(id);
    }
    process.send({ ids }, () => process.exit(0));
  });
  process.send('ready');
}

if (process.argv[2] === '--writer') runWriter();
else await main();
