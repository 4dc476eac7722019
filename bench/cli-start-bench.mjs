// CLI start-up benchmark: agents call `agentsync` in loops, so its wall time is compared with `node -e 0`,
// the floor of any Node command, in the same run and paired (each round runs both, in alternating order).
// Commands: `agentsync list` and `agentsync claim <id>` (claim and release alternate on one handoff, so every claim
// finds it queued; the release runs between rounds, unmeasured), on a store of 1 handoff, one of 1,000 open ones, and
// one of 1,000 open with 99,000 finished ones in the archive's month files (.agentsync/archive/YYYY-MM.jsonl, one
// record per line, as the archive pass writes them): a claim must cost the same with or without that history.
// Where the time goes, at 1,000 open: `agentsync --help`, which loads the CLI (from its code cache, as users run it)
// and prints its usage, and the store's own floor (storeIoFloor.cjs:
// read, parse, change one record, write back with fsync and rename, without AgentSync).
// It first builds dist/ as `npm pack` ships it (`node esbuild.mjs --production`, the package's prepack script), so the
// figures are those of what users run; --no-build times dist/ as it is.
// Usage: node bench/cli-start-bench.mjs [--rounds N] [--no-build] (N >= 15; default 21)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { percentile, ROOT } from './benchSupport.mjs';
import { finishedHandoff, fillStore } from './benchStores.mjs';

const CLI = path.join(ROOT, 'bin', 'agentsync.js');
const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 21;
if (!Number.isInteger(ROUNDS) || ROUNDS < 15) throw new Error('--rounds takes a whole number >= 15 (p99 needs pairs)');
if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'esbuild.mjs'), '--production'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`node esbuild.mjs --production exited ${built.status}`);
}
if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run node esbuild.mjs first');

function cli(dir, args, input) {
  const r = spawnSync(process.execPath, [CLI, '--dir', dir, ...args], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`agentsync ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/**
 * `agentsync init`, `extra` generated handoffs written as JSON and `archived` finished ones in the archive, then one
 * created by the CLI (which stamps the store).
 */
function workspace(extra, archived = 0) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-start-bench-'));
  cli(dir, ['init']);
  fillStore(path.join(dir, '.agentsync'), extra, archived);
  const created = cli(dir, ['--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'the handoff the bench claims']);
  if (archived > 0) {
    // The CLI reads the archive as written: `show` finds the newest archived handoff in its month's file.
    const shown = JSON.parse(cli(dir, ['--json', 'show', finishedHandoff(0).handoff_id]));
    if (shown.data?.handoff?.status !== 'merged') throw new Error(`show of an archived handoff: ${JSON.stringify(shown)}`);
  }
  return { dir, id: JSON.parse(created).data.handoff.handoff_id, size: extra + 1 };
}

function wall(argv, cwd) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return ms;
}

const NODE = ['-e', '0'];

/** ROUNDS pairs of (node -e 0, command), alternating which runs first; `between` runs after each pair, unmeasured. */
function paired(argv, cwd, between = () => undefined) {
  for (let i = 0; i < 3; i++) (wall(NODE, cwd), wall(argv, cwd), between()); // warm the file cache
  const base = [];
  const cmd = [];
  const ratios = [];
  for (let i = 0; i < ROUNDS; i++) {
    let b, c;
    if (i % 2) ((c = wall(argv, cwd)), (b = wall(NODE, cwd)));
    else ((b = wall(NODE, cwd)), (c = wall(argv, cwd)));
    between();
    base.push(b);
    cmd.push(c);
    ratios.push(c / b);
  }
  return { base, cmd, ratios };
}

const fmt = (x) => x.toFixed(1).padStart(7);
const rows = [];
for (const [extra, archived] of [
  [0, 0],
  [999, 0],
  [999, 99_000],
]) {
  const ws = workspace(extra, archived);
  const label = archived ? `${ws.size} + ${archived / 1000}k arch` : `${ws.size} open`;
  const list = paired([CLI, '--dir', ws.dir, 'list'], ws.dir);
  rows.push({ what: `list   (${label})`, ...list });
  const claim = paired([CLI, '--dir', ws.dir, 'claim', ws.id, '--agent', 'claude'], ws.dir, () =>
    cli(ws.dir, ['release', ws.id, '--agent', 'claude']),
  );
  rows.push({ what: `claim  (${label})`, ...claim });
  if (extra > 0 && archived === 0) {
    rows.push({ what: 'agentsync --help (load)', ...paired([CLI, '--help'], ws.dir) });
    rows.push({ what: `store I/O floor (${ws.size})`, ...paired([path.join(ROOT, 'bench', 'storeIoFloor.cjs'), ws.dir], ws.dir) });
  }
  fs.rmSync(ws.dir, { recursive: true, force: true });
}

const bundle = fs.statSync(path.join(ROOT, 'dist', 'cli.js')).size;
console.log(
  `rounds: ${ROUNDS} pairs per command, alternating order; dist/cli.js ${(bundle / 1024).toFixed(0)} KB; node ${process.version}`,
);
console.log('                             node -e 0 (ms)     command (ms)      ratio      ratio of');
console.log('                            median     p99    median     p99    medians   pairs (median)');
for (const r of rows) {
  const m = (xs) => percentile(xs, 50);
  const p = (xs) => percentile(xs, 99);
  console.log(
    `${r.what.padEnd(26)} ${fmt(m(r.base))} ${fmt(p(r.base))}   ${fmt(m(r.cmd))} ${fmt(p(r.cmd))}    ${(m(r.cmd) / m(r.base)).toFixed(2).padStart(5)}×` +
      `      ${m(r.ratios).toFixed(2)}×`,
  );
}
