// Scale benchmark (docs/agentsync-documentation.md, "The archive"): the cost of a write must grow with the open work,
// not with the history. For 100 / 1,000 / 10,000 / 100,000 handoffs in all (open fixed at 1,000, the rest archived,
// written straight into .agentsync/archive/ so the big cases build in seconds) it prints the in-process create and
// claim latency, the wall time of one `agentsync claim` process paired with `node -e 0` in the same run, the store
// and archive sizes, and the first write of a store that still holds all its history (which archives it).
// Prints figures; asserts nothing about speed.
// It times the CLI bundle in dist/ as it is: `node esbuild.mjs --production` first gives the figures of the VSIX.
// usage: node esbuild.mjs --production && npm run compile && node bench/scale-bench.mjs [--sizes 100,1000,10000,100000] [--ops 200] [--cli 15]
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
const { newUid } = coreModule('domain/handoffIds');
const CLI = path.join(ROOT, 'bin/agentsync.js');
if (!fs.existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/cli.js is missing: run npm run build first');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const SIZES = arg('--sizes', '100,1000,10000,100000').split(',').map(Number);
const OPS = Number(arg('--ops', '200'));
const CLI_RUNS = Number(arg('--cli', '15'));
const OPEN = 1_000;
const NOW = Date.now();
const DAY = 86_400_000;

// ---------- records, generated ----------

const AGENTS = ['codex', 'claude', 'copilot'];
const OPEN_STATUSES = ['queued', 'queued', 'in_progress', 'blocked', 'ready_for_review', 'approved'];

/** Record i of a series; `ageDays` puts it in the past (ids and months follow its day). */
function record(i, status, ageDays, perDay) {
  const day = new Date(NOW - ageDays * DAY);
  const ymd = day.toISOString().slice(0, 10).replace(/-/g, '');
  const at = new Date(day.getTime() - (i % perDay) * 1000).toISOString();
  const to = AGENTS[(i + 1) % 3];
  return generatedHandoff(i, at, {
    handoff_id: `HO-${ymd}-${String((i % perDay) + 1).padStart(4, '0')}`,
    from_agent: AGENTS[i % 3],
    to_agents: [to],
    status,
    required_capabilities: ['code_patch'],
    files: [`src/module${i % 50}/file${i}.ts`, `test/module${i % 50}.test.ts`],
    branch: `feature/${i}`,
    uid: newUid(Date.parse(at)),
    ...(status === 'in_progress' ? { claimed_by: to, claimed_at: at, lease_expires_at: new Date(NOW + DAY).toISOString() } : {}),
  });
}

/** 1,000 open handoffs from the last 10 days (ids HO-<day>-0001…). */
const openRecords = (n) =>
  Array.from({ length: n }, (_, i) => record(i, OPEN_STATUSES[i % OPEN_STATUSES.length], Math.floor(i / 100), 100));

/** Finished handoffs, 400 a day going back from 30 days ago: what the archive pass would have moved. */
function* finishedRecords(n) {
  for (let i = 0; i < n; i++) yield record(i, i % 10 === 9 ? 'escalated' : 'merged', 30 + Math.floor(i / 400), 400);
}

const storeText = (handoffs, highWater) =>
  JSON.stringify({ version: 1, ...(highWater ? { id_high_water: highWater } : {}), handoffs }, null, 2) + '\n';

/** A workspace with `total` handoffs: min(total, 1,000) open in handoffs.json, the rest already in the archive files. */
function workspaceWith(total) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agentsync-scale-${total}-`));
  initWorkspace(dir, storeSeed(dir));
  const layout = new WorkspaceLayout(dir);
  const open = openRecords(Math.min(total, OPEN));
  let highWater;
  const months = new Map();
  for (const h of finishedRecords(total - open.length)) {
    const month = `${h.handoff_id.slice(3, 7)}-${h.handoff_id.slice(7, 9)}`;
    if (!months.has(month)) months.set(month, []);
    months.get(month).push(JSON.stringify(h));
    if (!highWater || h.handoff_id > highWater) highWater = h.handoff_id;
  }
  if (months.size) fs.mkdirSync(layout.archiveDir, { recursive: true });
  for (const [month, lines] of months) fs.writeFileSync(path.join(layout.archiveDir, `${month}.jsonl`), lines.join('\n') + '\n');
  fs.writeFileSync(layout.handoffsFile, storeText(open, highWater));
  return { dir, layout };
}

const bytesUnder = (dir) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).reduce((n, name) => n + fs.statSync(path.join(dir, name)).size, 0) : 0;

// ---------- measuring ----------

const createRequest = (n) => ({
  action: 'createHandoff',
  handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: `scale bench ${n}`, files: ['src/bench.ts'] },
});
const claimRequest = (id) => ({ action: 'claimHandoff', handoffId: id, agent: 'claude' });

/** Wall time, and the CPU time this process spent (user + system): on a machine busy with other work the CPU time
 * still says what a request costs, while the wall time also holds the waits for the CPU and the disk. */
async function timed(dispatcher, request) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = await dispatcher.dispatch(request);
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  if (!r.ok) throw new Error(`${request.action} refused: ${r.reason}: ${r.message}`);
  return { ms, cpuMs: (used.user + used.system) / 1000, id: r.data.handoff.handoff_id };
}

function spawnMs(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return ms;
}

async function benchSize(total) {
  const { dir, layout } = workspaceWith(total);
  const storeBytes = fs.statSync(layout.handoffsFile).size;
  const archiveBytes = bytesUnder(layout.archiveDir);
  const dispatcher = new RequestDispatcher(new HandoffStore(layout), 'bench');
  // Warm-up (first full validation of a store no stamp vouches for yet, module and schema compilation): not measured.
  for (let i = 0; i < 10; i++) await timed(dispatcher, claimRequest((await timed(dispatcher, createRequest(`warm ${i}`))).id));
  const creates = [];
  const claims = [];
  const cpu = [];
  for (let i = 0; i < OPS; i++) {
    const c = await timed(dispatcher, createRequest(i));
    const k = await timed(dispatcher, claimRequest(c.id));
    creates.push(c.ms);
    claims.push(k.ms);
    cpu.push(c.cpuMs, k.cpuMs);
  }
  // CLI: handoffs to claim, made in-process; then each `agentsync claim` is paired with a `node -e 0` right before it.
  const toClaim = [];
  for (let i = 0; i < CLI_RUNS + 1; i++) toClaim.push((await timed(dispatcher, createRequest(`cli ${i}`))).id);
  const claimArgs = (id) => [CLI, '--dir', dir, '--json', 'claim', id, '--agent', 'claude'];
  spawnMs(['-e', '0']);
  spawnMs(claimArgs(toClaim[0])); // warms the OS file cache for the bundle
  const node = [];
  const cli = [];
  for (const id of toClaim.slice(1)) {
    node.push(spawnMs(['-e', '0']));
    cli.push(spawnMs(claimArgs(id)));
  }
  const ratios = cli.map((c, i) => c / node[i]);
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    total,
    archived: total - Math.min(total, OPEN),
    storeBytes,
    archiveBytes,
    createMed: median(creates),
    createP99: percentile(creates, 99),
    claimMed: median(claims),
    claimP99: percentile(claims, 99),
    cpuMed: median(cpu),
    nodeMed: median(node),
    cliMed: median(cli),
    ratioMed: median(ratios),
    firstWrite: await firstWriteMs(total),
  };
}

/** A store that still holds all `total` handoffs (finished ones past archive.after_days): its first write archives them. */
async function firstWriteMs(total) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agentsync-scale-first-${total}-`));
  initWorkspace(dir, storeSeed(dir));
  const layout = new WorkspaceLayout(dir);
  const all = [...openRecords(Math.min(total, OPEN)), ...finishedRecords(total - Math.min(total, OPEN))];
  fs.writeFileSync(layout.handoffsFile, storeText(all));
  const dispatcher = new RequestDispatcher(new HandoffStore(layout), 'bench');
  const { ms } = await timed(dispatcher, createRequest('first'));
  const left = JSON.parse(fs.readFileSync(layout.handoffsFile, 'utf8')).handoffs.length;
  const lines = fs.existsSync(layout.archiveDir)
    ? fs
        .readdirSync(layout.archiveDir)
        .reduce((n, f) => n + fs.readFileSync(path.join(layout.archiveDir, f), 'utf8').split('\n').length - 1, 0)
    : 0;
  fs.rmSync(dir, { recursive: true, force: true });
  if (left + lines !== total + 1)
    throw new Error(`first write of ${total}: ${left} in the store + ${lines} archived, expected ${total + 1}`);
  return ms;
}

// ---------- report ----------

const cpus = os.cpus();
console.log('AgentSync scale benchmark');
console.log(
  `node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} CPU(s) (${cpus[0]?.model.trim() ?? 'unknown'}), load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `in-process: ${OPS} createHandoff + claimHandoff pairs on one HandoffStore (out/src/core), open handoffs start at ${OPEN.toLocaleString('en-US')}; ` +
    `CLI: ${CLI_RUNS} \`agentsync claim\` processes, each right after a \`node -e 0\`\n`,
);

const results = [];
for (const size of SIZES) results.push(await benchSize(size));

const f = (x, d = 2) => x.toFixed(d);
const n = (x) => x.toLocaleString('en-US');
const rows = [
  ['handoffs in all', (r) => n(r.total)],
  ['of them archived', (r) => n(r.archived)],
  ['handoffs.json (KB)', (r) => f(r.storeBytes / 1024, 0)],
  ['archive/ (KB)', (r) => f(r.archiveBytes / 1024, 0)],
  ['createHandoff median (ms)', (r) => f(r.createMed)],
  ['createHandoff p99 (ms)', (r) => f(r.createP99)],
  ['claimHandoff median (ms)', (r) => f(r.claimMed)],
  ['claimHandoff p99 (ms)', (r) => f(r.claimP99)],
  ['CPU time per create or claim, median (ms)', (r) => f(r.cpuMed)],
  ['`node -e 0` median (ms)', (r) => f(r.nodeMed, 1)],
  ['`agentsync claim` median (ms)', (r) => f(r.cliMed, 1)],
  ['`agentsync claim` / `node -e 0` (median of pairs)', (r) => f(r.ratioMed)],
  ['first write archiving a full store (ms)', (r) => f(r.firstWrite, 0)],
];
const w0 = Math.max(...rows.map(([l]) => l.length));
console.log(rows.map(([label, get]) => `${label.padEnd(w0)}  ${results.map((r) => get(r).padStart(10)).join('  ')}`).join('\n'));
