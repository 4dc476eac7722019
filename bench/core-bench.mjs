// Core benchmark: latency and throughput of the dispatcher on stores of 100, 1,000 and 10,000 handoffs, and the
// wall time of one `agentsync claim` process. Prints figures; asserts nothing about speed.
// usage: npx tsc -p . && node esbuild.mjs && node bench/core-bench.mjs [--sizes 100,1000,10000]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generatedHandoff } from '../test/integration/generatedHandoff.mjs';
import { coreModule, median, percentile, ROOT } from './benchSupport.mjs';

const { HandoffStore } = coreModule('store/handoffStore');
const { RequestDispatcher } = coreModule('requests/requestDispatcher');
const { WorkspaceLayout } = coreModule('workspace/workspaceLayout');
const { initWorkspace } = coreModule('workspace/workspaceInit');
const { storeSeed } = coreModule('store/storeReader');
const { handoffsFileSchema } = coreModule('domain/handoffSchema');
const { newUid } = coreModule('domain/handoffIds');
const CLI = path.join(ROOT, 'bin/agentsync.js');
if (!fs.existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/cli.js is missing: run node esbuild.mjs first');

const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? process.argv[sizesArg + 1].split(',').map(Number) : [100, 1_000, 10_000];
const SEQUENTIAL_OPS = 200;
const CONCURRENCY = 50;
const CONCURRENT_ROUNDS = 10;
const CLI_RUNS = 10;

// ---------- a pre-generated store, written directly as JSON ----------

const STATUSES_MIX = [
  'merged',
  'merged',
  'merged',
  'approved',
  'ready_for_review',
  'in_progress',
  'blocked',
  'queued',
  'queued',
  'escalated',
];
const AGENTS = ['codex', 'claude', 'copilot'];

function storeHandoff(i, size) {
  const day = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 500) * 86_400_000); // 500 a day, all in the past
  const ymd = day.toISOString().slice(0, 10).replace(/-/g, '');
  const at = new Date(day.getTime() + (i % 500) * 60_000).toISOString();
  const status = STATUSES_MIX[i % STATUSES_MIX.length];
  const to = AGENTS[(i + 1) % 3];
  return generatedHandoff(i, at, {
    handoff_id: `HO-${ymd}-${String((i % 500) + 1).padStart(size > 999 ? 4 : 3, '0')}`,
    from_agent: AGENTS[i % 3],
    to_agents: [to],
    status,
    required_capabilities: ['code_patch'],
    files: [`src/module${i % 50}/file${i}.ts`, `test/module${i % 50}.test.ts`],
    branch: `feature/${i}`,
    uid: newUid(day.getTime() + i),
    ...(status === 'in_progress' ? { claimed_by: to, claimed_at: at, lease_expires_at: at } : {}),
  });
}

function workspaceWith(size) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agentsync-bench-${size}-`));
  initWorkspace(dir, storeSeed(dir));
  const layout = new WorkspaceLayout(dir);
  const file = { version: 1, handoffs: Array.from({ length: size }, (_, i) => storeHandoff(i, size)) };
  const parsed = handoffsFileSchema.safeParse(file);
  if (!parsed.success) throw new Error(`generated store does not match the schema: ${parsed.error.message.slice(0, 500)}`);
  fs.writeFileSync(layout.handoffsFile, JSON.stringify(file, null, 2) + '\n');
  return { dir, layout, bytes: fs.statSync(layout.handoffsFile).size };
}

// ---------- measuring ----------

const createRequest = (n) => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: `bench handoff ${n}`, files: ['src/bench.ts'] },
});
const claimRequest = (id) => ({ action: 'claimHandoff', handoffId: id, agent: 'claude' });

async function must(dispatcher, request) {
  const r = await dispatcher.dispatch(request);
  if (!r.ok) throw new Error(`${request.action} refused: ${r.reason}: ${r.message}`);
  return r.data.handoff.handoff_id;
}

async function sequential(dispatcher, requests) {
  const ms = [];
  const ids = [];
  for (const request of requests) {
    const t = performance.now();
    ids.push(await must(dispatcher, request));
    ms.push(performance.now() - t);
  }
  return { ms, ids };
}

async function concurrent(dispatcher, makeRounds) {
  let ops = 0;
  const ids = [];
  const t = performance.now();
  for (const round of makeRounds) {
    ids.push(...(await Promise.all(round.map((r) => must(dispatcher, r)))));
    ops += round.length;
  }
  return { perSecond: ops / ((performance.now() - t) / 1000), ids };
}

function cliClaimMs(dir, id) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, '--dir', dir, '--json', 'claim', id, '--agent', 'claude'], { encoding: 'utf8' });
  const ms = performance.now() - t;
  const out = JSON.parse(r.stdout);
  if (r.status !== 0 || !out.ok) throw new Error(`agentsync claim ${id} failed: ${r.stdout}${r.stderr}`);
  return ms;
}

async function benchSize(size) {
  const { dir, layout, bytes } = workspaceWith(size);
  const dispatcher = new RequestDispatcher(new HandoffStore(layout), 'bench');
  // Warm-up (first load of the store, schema compilation): not measured.
  const warm = [];
  for (let i = 0; i < 10; i++) warm.push(await must(dispatcher, createRequest(`warm ${i}`)));
  for (const id of warm) await must(dispatcher, claimRequest(id));

  const creates = await sequential(
    dispatcher,
    Array.from({ length: SEQUENTIAL_OPS }, (_, i) => createRequest(i)),
  );
  const claims = await sequential(dispatcher, creates.ids.map(claimRequest));
  const rounds = (make) =>
    Array.from({ length: CONCURRENT_ROUNDS }, (_, r) => Array.from({ length: CONCURRENCY }, (_, k) => make(r * CONCURRENCY + k)));
  const cCreates = await concurrent(
    dispatcher,
    rounds((n) => createRequest(`c${n}`)),
  );
  const cClaims = await concurrent(
    dispatcher,
    rounds((n) => claimRequest(cCreates.ids[n])),
  );

  // The CLI runs on a fresh store of the stated size (plus the handoffs it claims), not the grown one above.
  const cliWs = workspaceWith(size);
  const cliDispatcher = new RequestDispatcher(new HandoffStore(cliWs.layout), 'bench');
  const cliIds = [];
  for (let i = 0; i < CLI_RUNS + 1; i++) cliIds.push(await must(cliDispatcher, createRequest(`cli ${i}`)));
  cliClaimMs(cliWs.dir, cliIds[0]); // warm the OS file cache for the bundle
  const cli = cliIds.slice(1).map((id) => cliClaimMs(cliWs.dir, id));
  fs.rmSync(cliWs.dir, { recursive: true, force: true });

  const finalCount = JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')).handoffs.length;
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    size,
    bytes,
    finalCount,
    createMed: median(creates.ms),
    createP99: percentile(creates.ms, 99),
    claimMed: median(claims.ms),
    claimP99: percentile(claims.ms, 99),
    createPerS: cCreates.perSecond,
    claimPerS: cClaims.perSecond,
    cliMed: median(cli),
    cliMin: Math.min(...cli),
  };
}

function nodeStartupMs() {
  const runs = Array.from({ length: CLI_RUNS }, () => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    return performance.now() - t;
  });
  return median(runs);
}

// ---------- report ----------

const cpus = os.cpus();
console.log('AgentSync core benchmark');
console.log(
  `node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} CPU(s) (${cpus[0]?.model.trim() ?? 'unknown'}), ` +
    `${Math.round(os.totalmem() / 2 ** 30)} GiB RAM`,
);
console.log(`temp dir ${os.tmpdir()}; in-process = RequestDispatcher.dispatch on one HandoffStore (out/src/core)`);
console.log(
  `latency: ${SEQUENTIAL_OPS} sequential awaited requests each; throughput: ${CONCURRENT_ROUNDS} rounds of ${CONCURRENCY} concurrent requests; ` +
    `CLI: median of ${CLI_RUNS} runs of one process\n`,
);

const results = [];
for (const size of SIZES) results.push(await benchSize(size));

const f = (x, d = 2) => x.toFixed(d);
const rows = [
  ['store size (handoffs at start)', (r) => r.size.toLocaleString('en-US')],
  ['handoffs.json at start (KB)', (r) => f(r.bytes / 1024, 0)],
  ['handoffs at end', (r) => r.finalCount.toLocaleString('en-US')],
  ['createHandoff median (ms)', (r) => f(r.createMed)],
  ['createHandoff p99 (ms)', (r) => f(r.createP99)],
  ['claimHandoff median (ms)', (r) => f(r.claimMed)],
  ['claimHandoff p99 (ms)', (r) => f(r.claimP99)],
  [`createHandoff x${CONCURRENCY} concurrent (req/s)`, (r) => f(r.createPerS, 0)],
  [`claimHandoff x${CONCURRENCY} concurrent (req/s)`, (r) => f(r.claimPerS, 0)],
  ['`agentsync claim` process median (ms)', (r) => f(r.cliMed, 1)],
  ['`agentsync claim` process min (ms)', (r) => f(r.cliMin, 1)],
];
const w0 = Math.max(...rows.map(([l]) => l.length));
const cell = (s) => s.padStart(10);
console.log(`${''.padEnd(w0)}  ${results.map((r) => cell(`${r.size.toLocaleString('en-US')}`)).join('  ')}`);
for (const [label, get] of rows.slice(1)) console.log(`${label.padEnd(w0)}  ${results.map((r) => cell(get(r))).join('  ')}`);
console.log(`\nfor reference: \`node -e 0\` process median ${f(nodeStartupMs(), 1)} ms`);
