// post-tool-use hook benchmark: `agentsync hook post-tool-use` runs after every tool call of an agent, so
// its wall time is compared with `node -e 0`, the floor of any Node command, in the same run, paired (each round
// runs both, in alternating order). Workspace: `agentsync init`, 500 handoffs, one claimed by claude with a fresh
// lease (nothing due: the common case). Input: the recorded Claude Code PostToolUse JSON on stdin.
// Run `node esbuild.mjs` first (npm run bench does). Usage: node bench/hook-bench.mjs [--rounds N]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, '..', 'bin', 'agentsync.js');
const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 60;

const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-hook-bench-'));
const run = (args, input) => spawnSync(process.execPath, [CLI, '--dir', ws, ...args], { input, encoding: 'utf8' });
run(['init']);
const seed = [];
for (let i = 0; i < 500; i++)
  seed.push({
    action: 'createHandoff',
    handoff: { from_agent: 'codex', to_agents: ['claude'], owner_mode: 'single', summary: `bench ${i}`, files: ['src/bench.ts'] },
  });
for (const r of seed) run(['request', '-'], JSON.stringify(r));
const first = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8')).handoffs[0].handoff_id;
run(['request', '-'], JSON.stringify({ action: 'claimHandoff', handoffId: first, agent: 'claude' }));
const input = fs
  .readFileSync(path.join(HERE, '..', 'test/fixtures/hooks/claude/post-tool-use.json'), 'utf8')
  .replaceAll('__WORKSPACE__', ws);
const storeBefore = fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'));

function wall(argv) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { input, cwd: ws, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const hookArgv = [CLI, 'hook', 'post-tool-use', '--agent', 'claude', '--format', 'claude'];
const nodeArgv = ['-e', '0'];
for (let i = 0; i < 5; i++) (wall(nodeArgv), wall(hookArgv)); // warm the file cache
const hook = [];
const base = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2) (hook.push(wall(hookArgv)), base.push(wall(nodeArgv)));
  else (base.push(wall(nodeArgv)), hook.push(wall(hookArgv)));
}
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const fmt = (x) => x.toFixed(1).padStart(7);
console.log(`rounds: ${ROUNDS} (paired), store: 500 handoffs, one lease held by claude (not due)`);
console.log(`                       median      p99   (ms)`);
console.log(`node -e 0            ${fmt(q(base, 0.5))}  ${fmt(q(base, 0.99))}`);
console.log(`hook post-tool-use   ${fmt(q(hook, 0.5))}  ${fmt(q(hook, 0.99))}`);
const ratio = q(hook, 0.5) / q(base, 0.5);
console.log(`ratio of medians: ${ratio.toFixed(3)} (bar: <= 1.3)`);
const unchanged = fs.readFileSync(path.join(ws, '.agentsync/handoffs.json')).equals(storeBefore);
console.log(`store rewritten: ${unchanged ? 'no' : 'YES'}`);
fs.rmSync(ws, { recursive: true, force: true });
process.exitCode = ratio <= 1.3 && unchanged ? 0 : 1;
