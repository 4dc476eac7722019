// Tool-hook benchmark: `agentsync hook pre-tool-use` (the conflict radar) runs before every tool call of an agent and
// `agentsync hook post-tool-use` after it, so their wall time is compared with `node -e 0`, the floor of any Node
// command, in the same run, paired (each round runs both, in alternating order). Stores of 1,000 and 10,000 open
// handoffs (generated, written as AgentSync writes them), one claimed by claude with a fresh lease (nothing due: the
// common case) and one claimed by codex listing src/contested.ts. Inputs: Claude Code's recorded hook JSON on stdin:
// post-tool-use after a Bash call; pre-tool-use before a Write of a file no handoff lists (the common case), of a file
// a queued handoff lists (its record is parsed, no claim), and of src/contested.ts (a warning is printed).
// Run `node esbuild.mjs` first (npm run bench does). Usage: node bench/hook-bench.mjs [--rounds N] [--sizes 1000,10000]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generatedHandoff } from '../test/integration/generatedHandoff.mjs';
import { median, percentile, ROOT } from './benchSupport.mjs';

const CLI = path.join(ROOT, 'bin', 'agentsync.js');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const ROUNDS = Number(arg('--rounds', '40'));
const SIZES = arg('--sizes', '1000,10000').split(',').map(Number);
if (!Number.isInteger(ROUNDS) || ROUNDS < 10) throw new Error('--rounds takes a whole number >= 10');
if (!fs.existsSync(path.join(ROOT, 'dist', 'hook.js'))) throw new Error('dist/hook.js is missing: run node esbuild.mjs first');

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const uid = (n) => '01J' + Array.from({ length: 23 }, (_, k) => CROCKFORD[Math.floor(n / 32 ** (22 - k)) % 32]).join('');

function workspace(open) {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-hook-bench-'));
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, 'init'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`init: ${r.stderr}`);
  const file = path.join(ws, '.agentsync', 'handoffs.json');
  const store = JSON.parse(fs.readFileSync(file, 'utf8'));
  const now = Date.now();
  const lease = (agent) => ({
    status: 'in_progress',
    claimed_by: agent,
    claimed_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    lease_expires_at: new Date(now + 30 * 60_000).toISOString(),
  });
  for (let i = 0; i < open; i++) {
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    const id = `HO-${at.slice(0, 10).replace(/-/g, '')}-${String(i + 1).padStart(4, '0')}`;
    const fields = { handoff_id: id, uid: uid(i) };
    if (i === 0) Object.assign(fields, lease('claude'));
    if (i === 1) Object.assign(fields, lease('codex'), { from_agent: 'claude', to_agents: ['codex'], files: ['src/contested.ts'] });
    store.handoffs.push(generatedHandoff(i, at, fields));
  }
  fs.writeFileSync(file, JSON.stringify(store, null, 2) + '\n');
  return ws;
}

const fixture = (name, ws) =>
  fs.readFileSync(path.join(ROOT, 'test/fixtures/hooks/claude', `${name}.json`), 'utf8').replaceAll('__WORKSPACE__', ws);
const writeOf = (ws, rel) => {
  const input = JSON.parse(fixture('pre-tool-use', ws));
  input.tool_input.file_path = path.join(ws, rel);
  return JSON.stringify(input);
};

function wall(argv, cwd, input) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { input, cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

function paired(argv, cwd, input) {
  const node = ['-e', '0'];
  for (let i = 0; i < 3; i++) (wall(node, cwd), wall(argv, cwd, input)); // warm the file cache
  const base = [];
  const cmd = [];
  const ratios = [];
  let out = '';
  for (let i = 0; i < ROUNDS; i++) {
    let b, c;
    if (i % 2) ((c = wall(argv, cwd, input)), (b = wall(node, cwd)));
    else ((b = wall(node, cwd)), (c = wall(argv, cwd, input)));
    base.push(b.ms);
    cmd.push(c.ms);
    ratios.push(c.ms / b.ms);
    out = c.out;
  }
  return { base, cmd, ratios, out };
}

const fmt = (x) => x.toFixed(1).padStart(7);
let worst = 0;
let storeChanged = false;
console.log(`rounds: ${ROUNDS} (paired with node -e 0, alternating order); figures in ms`);
console.log(`open   hook                                       node median  hook median  hook p99  median of pair ratios  printed`);
for (const open of SIZES) {
  const ws = workspace(open);
  const storeBefore = fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'));
  const cases = [
    ['post-tool-use (Bash)', 'post-tool-use', fixture('post-tool-use', ws).replace('"Write"', '"Bash"')],
    ['pre-tool-use Write, file nobody lists', 'pre-tool-use', writeOf(ws, 'src/free.ts')],
    ['pre-tool-use Write, file a queued one lists', 'pre-tool-use', writeOf(ws, 'src/module7/file7.ts')],
    ['pre-tool-use Write, file codex holds', 'pre-tool-use', writeOf(ws, 'src/contested.ts')],
  ];
  for (const [name, event, input] of cases) {
    const r = paired([CLI, 'hook', event, '--agent', 'claude', '--format', 'claude'], ws, input);
    const ratio = median(r.ratios);
    worst = Math.max(worst, ratio);
    const printed = r.out.includes('conflict radar') ? 'radar warning' : r.out.trim() ? r.out.trim().slice(0, 20) : 'nothing';
    const figures = `${fmt(median(r.base))}      ${fmt(median(r.cmd))}   ${fmt(percentile(r.cmd, 99))}  ${ratio.toFixed(3).padStart(12)}`;
    console.log(`${String(open).padStart(6)} ${name.padEnd(42)} ${figures}           ${printed}`);
  }
  storeChanged ||= !fs.readFileSync(path.join(ws, '.agentsync/handoffs.json')).equals(storeBefore);
  fs.rmSync(ws, { recursive: true, force: true });
}
console.log(`worst median of pair ratios: ${worst.toFixed(3)} (bar: <= 1.3); store rewritten: ${storeChanged ? 'YES' : 'no'}`);
process.exitCode = worst <= 1.3 && !storeChanged ? 0 : 1;
