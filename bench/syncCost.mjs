// The figures of sync's cost goals (docs/contract.md §13, "What a write costs"), printed by bench/sync-bench.mjs: a
// confirmed claim against `node -e 0` with and without a long finished history, what one write adds to the remote's
// objects/, a fresh clone's first sync after a long history against the same state in one commit, the git processes
// one write starts, and the pre-tool hook at many open handoffs. Each on a workspace syncedWorkspace() seeded.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { median, percentile, ROOT } from './benchSupport.mjs';
import {
  byteProxy,
  CLI,
  cliJson,
  confirmed,
  consentingClone,
  bareRepo,
  fastImportHistory,
  git,
  gitShim,
  nextQueued,
  recordsAt,
  REF,
  run,
  runAsync,
  syncNow,
  syncedWorkspace,
  treeBytes,
  upgradeFormat,
} from './syncSeed.mjs';

const RUNNER = path.join(ROOT, 'bench/sync-runner.cjs');
/**
 * The product's remote time limit (src/core/git/gitRemote.ts, 30 s) made long, where a long history needs it. Read when
 * used: sync-bench.mjs sets the run's consent file in process.env after this module is loaded.
 */
const patient = () => ({ ...process.env, AGENTSYNC_REMOTE_TIMEOUT_MS: '900000' });
const KB = (b) => `${(b / 1024).toFixed(1)} KB`;
const spread = (xs, unit = (x) => `${x.toFixed(1)} ms`) =>
  `median ${unit(median(xs))}, p99 ${unit(percentile(xs, 99))}, largest ${unit(Math.max(...xs))} (n=${xs.length})`;
const ms = (f) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const nodeFloor = () => ms(() => run(process.execPath, ['-e', '0']));
const claim = (w, env) => () => confirmed(cliJson(w.ws, ['claim', nextQueued(w), '--agent', 'bench'], env), `claim in ${w.ws}`);

/** Runs `jobs` in one sync-runner process; answers (each confirmed) and the `du` after each, until `deadline`. */
function runJobs(work, jobs, deadline) {
  const file = path.join(work, `jobs-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(jobs));
  const out = run(process.execPath, [RUNNER, '-', file, String(deadline)]);
  const answers = [];
  const du = [];
  for (const line of out.split('\n')) {
    if (/^\d/.test(line)) answers.push(confirmed(line.slice(line.indexOf(' ') + 1), `a runner job in ${work}`));
    else if (line.startsWith('DU ')) du.push(Number(line.slice(3)));
  }
  return { answers, du, stopped: /^STOPPED/m.test(out) };
}

/** The workspaces of the figures, by open and finished count, seeded once and kept for every figure that uses them. */
export class Workspaces {
  constructor(o) {
    this.o = o;
    this.made = new Map();
  }

  get(open, finished) {
    const key = `${open}+${finished}`;
    if (!this.made.has(key)) {
      const name = `open${open}-finished${finished}`;
      const w = syncedWorkspace({ ...this.o, name, url: this.o.url(name), open, finished });
      w.label = `${open} open${finished ? ` + ${finished} finished` : ''}`;
      console.log(`   seeded ${w.label} (format ${this.o.format}) in ${w.seedS.toFixed(1)} s: ${recordsAt(w.ws, w.bare)}`);
      this.made.set(key, w);
    }
    return this.made.get(key);
  }
}

/** 1. A confirmed claim at `small` and at `large` (more finished), each round: node -e 0 and both, order alternating. */
export function claimFigure(o, small, large) {
  const t = { node: [], small: [], large: [] };
  const start = Date.now();
  for (let r = 0; r < o.rounds && (r < 5 || Date.now() - start < o.budgetS * 1000); r++) {
    const steps = [() => t.node.push(nodeFloor()), () => t.small.push(ms(claim(small))), () => t.large.push(ms(claim(large)))];
    for (const s of r % 2 ? steps.reverse() : steps) s();
  }
  const pairs = (xs) => median(xs.map((x, r) => x / t.node[r]));
  console.log(`\n1. a confirmed claim (\`agentsync --json claim <id> --agent bench\`, one process), ${t.node.length} rounds:`);
  console.log(`   node -e 0                             ${spread(t.node)}`);
  for (const [k, w] of [
    ['small', small],
    ['large', large],
  ]) {
    console.log(
      `   claim at ${w.label.padEnd(28)} ${spread(t[k])}; ratio to node -e 0: ${(median(t[k]) / median(t.node)).toFixed(2)}x ` +
        `(median of round ratios ${pairs(t[k]).toFixed(2)}x)`,
    );
  }
  const apart = median(t.large.map((x, r) => x / t.small[r]));
  console.log(
    `   ${large.label} / ${small.label}: ${(median(t.large) / median(t.small)).toFixed(2)}x (median of round ratios ${apart.toFixed(2)}x); ` +
      `goal <= 1.2x apart, <= 3.0x node -e 0`,
  );
}

/** 2. What each write adds to the remote's objects/ (no gc), after the ledger was filled, for each workspace. */
export function growthFigure(o, workspaces) {
  console.log(
    `\n2. the remote's objects/ growth per confirmed write (claims, one runner process, gc off), after ${o.ledgerFill} writes fill the ledger:`,
  );
  for (const w of workspaces) {
    const fillStart = Date.now();
    const held = Array.from({ length: Math.min(50, o.ledgerFill) }, () => nextQueued(w));
    const fill = Array.from({ length: o.ledgerFill }, (_, n) =>
      n < held.length
        ? { argv: ['--dir', w.ws, '--json', 'claim', held[n], '--agent', 'bench'] }
        : {
            argv: ['--dir', w.ws, '--json', 'request', '-'],
            stdin: JSON.stringify({
              action: 'updateTodos',
              handoffId: held[n % held.length],
              agent: 'bench',
              todos: [{ id: '1', content: `fill ${n}`, status: 'in_progress', priority: 'medium' }],
            }),
          },
    );
    const filled = runJobs(o.work, fill, fillStart + o.budgetS * 1000);
    const objects = path.join(w.bare, 'objects');
    const before = treeBytes(objects);
    const writes = Array.from({ length: o.writes }, () => ({
      argv: ['--dir', w.ws, '--json', 'claim', nextQueued(w), '--agent', 'bench'],
      du: objects,
    }));
    const measured = runJobs(o.work, writes, Date.now() + o.budgetS * 1000);
    const growth = measured.du.map((b, k) => b - (k ? measured.du[k - 1] : before));
    const cut = filled.stopped || measured.stopped ? ` (cut at --budget-s ${o.budgetS}: ledger fill ${filled.answers.length} writes)` : '';
    console.log(`   ${w.label.padEnd(28)} ${growth.length ? spread(growth, KB) : 'no write within the budget'}; goal <= 16 KB${cut}`);
    console.log(`      ${recordsAt(w.ws, w.bare)}; objects/ ${KB(treeBytes(objects))}`);
  }
}

/** 4. Git processes one uncontended confirmed claim starts in this clone (a logging `git` first on PATH). */
export function gitProcessFigure(o, w) {
  const shim = gitShim(path.join(o.work, 'git-shim'));
  const counts = [];
  let calls = [];
  for (let k = 0; k < Math.min(o.rounds, 11); k++) {
    shim.take();
    claim(w, shim.env)();
    calls = shim.take();
    // None would mean AgentSync no longer finds git on PATH: a figure of 0 would be false, so the bench stops.
    if (calls.length === 0) throw new Error('the logging git on PATH saw no git process: the count cannot be made this way');
    counts.push(calls.length);
  }
  /** The git command of a process's arguments: the first word that is not an option (-c and -C take a value). */
  const subcommand = (args) => {
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '-c' || args[i] === '-C') i++;
      else if (!args[i].startsWith('-')) return args[i];
    }
    return args.join(' ');
  };
  console.log(`\n4. git processes per uncontended confirmed claim at ${w.label}, counted by a logging \`git\` first on PATH:`);
  console.log(`   ${spread(counts, (x) => String(x))}; goal <= 3; the last: ${calls.map(subcommand).join(', ')}`);
}

/** 5. `agentsync hook pre-tool-use` (a Write of a file no handoff lists) in a sync-mode workspace, against node -e 0. */
export function hookFigure(o, w) {
  const input = fs
    .readFileSync(path.join(ROOT, 'test/fixtures/hooks/claude/pre-tool-use.json'), 'utf8')
    .replaceAll('__WORKSPACE__', w.ws)
    .replace('src/auth/session.ts', 'src/free.ts');
  const hook = () =>
    ms(() => {
      const r = spawnSync(process.execPath, [CLI, 'hook', 'pre-tool-use', '--agent', 'claude', '--format', 'claude'], {
        cwd: w.ws,
        input,
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`the pre-tool hook in ${w.ws} exited ${r.status}: ${r.stdout}${r.stderr}`);
    });
  for (let k = 0; k < 3; k++) (nodeFloor(), hook()); // the file cache warm
  const t = { node: [], hook: [] };
  for (let r = 0; r < o.rounds; r++) {
    if (r % 2) (t.hook.push(hook()), t.node.push(nodeFloor()));
    else (t.node.push(nodeFloor()), t.hook.push(hook()));
  }
  const pairs = median(t.hook.map((x, r) => x / t.node[r]));
  console.log(
    `\n5. \`agentsync hook pre-tool-use --agent claude --format claude\` (Write of a file nobody lists) at ${w.label}, sync mode:`,
  );
  console.log(`   node -e 0   ${spread(t.node)}`);
  console.log(
    `   hook        ${spread(t.hook)}; ratio to node -e 0: ${(median(t.hook) / median(t.node)).toFixed(2)}x (median of round ratios ${pairs.toFixed(2)}x)`,
  );
}

/**
 * 3. A fresh clone's first `agentsync sync` on a ref with `historyWrites` writes (`historyHeld` claims through the product, the
 * rest updateTodos written by fast-import as format-1 commits; then upgraded for a tree format), through a byte-counting
 * proxy; the same for the same state in one commit (a bare repository whose ref is one parentless commit of its tree).
 */
export async function freshCloneFigure(o) {
  const hw = syncedWorkspace({ ...o, format: 1, name: 'longhistory', url: o.url('longhistory'), open: o.historyHeld, finished: 0 });
  runJobs(
    o.work,
    hw.ids.map((id) => ({ argv: ['--dir', hw.ws, '--json', 'claim', id, '--agent', 'bench'] })),
    Infinity,
  );
  const imported = Math.max(0, o.historyWrites - hw.ids.length);
  const importS = await fastImportHistory(hw.bare, imported, 'bench');
  if (o.format > 1) {
    // Setup, not measured: this clone catches up on the history (past the product's 30 s remote limit if need be).
    syncNow(hw.ws, hw.bare, 'after the history', patient());
    upgradeFormat(hw.ws, o.format, patient());
  }
  const commits = Number(git(['--git-dir', hw.bare, 'rev-list', '--count', REF]));
  // The same state in one commit: main as it is, the ref a parentless commit of the ref's tree.
  const one = bareRepo(o.base, 'onecommit');
  git(['--git-dir', hw.bare, 'push', '--quiet', one, 'main']);
  const tree = git(['--git-dir', hw.bare, 'rev-parse', `${REF}^{tree}`]).trim();
  const lone = git(['--git-dir', hw.bare, '-c', 'user.name=bench', '-c', 'user.email=b@b', 'commit-tree', tree, '-m', 'one']).trim();
  git(['--git-dir', hw.bare, 'push', '--quiet', one, `${lone}:${REF}`]);
  console.log(
    `\n3. a fresh clone's first \`agentsync --json sync\` through a byte-counting proxy to the git daemon; the ref: ${commits} commits ` +
      `(${hw.ids.length} claims through the product, ${imported} updateTodos written as format-1 commits by git fast-import in ${importS.toFixed(1)} s` +
      `${o.format > 1 ? ', then agentsync sync --upgrade-format' : ''}); ${recordsAt(hw.ws, hw.bare)}`,
  );
  const proxy = await byteProxy(o.daemonPort);
  const down = {};
  try {
    for (const [label, repo] of [
      ['history', 'longhistory'],
      ['one commit', 'onecommit'],
    ]) {
      // Cloned directly (this process is blocked meanwhile, the proxy could not serve), then origin is the proxy.
      const dir = consentingClone(o.url(repo), path.join(o.work, `fresh-${repo}`));
      git(['remote', 'set-url', 'origin', `git://127.0.0.1:${proxy.port}/${repo}.git`], dir);
      // The clone's own objects and those of AgentSync's state repository (docs/contract.md §13), made by the sync.
      const objectBytes = () =>
        [path.join(dir, '.git/objects'), path.join(dir, '.git/agentsync/@state.git/objects')].reduce(
          (sum, d) => sum + (fs.existsSync(d) ? treeBytes(d) : 0),
          0,
        );
      const before = objectBytes();
      // With the product's own remote time limit first; when it runs out, again with a long one for the figures.
      let answer;
      let took;
      for (const env of [process.env, patient()]) {
        proxy.reset();
        const t0 = performance.now();
        const out = await runAsync(process.execPath, [CLI, '--dir', dir, '--json', 'sync'], { env, anyExit: true });
        took = performance.now() - t0;
        answer = JSON.parse(out.trim().split('\n').pop());
        if (answer.ok === true || answer.reason !== 'remote_unreachable' || env.AGENTSYNC_REMOTE_TIMEOUT_MS === '900000') break;
        const again = `again with AGENTSYNC_REMOTE_TIMEOUT_MS=900000`;
        console.log(`   ${label.padEnd(10)} refused ${answer.reason} (${answer.detail}) after ${(took / 1000).toFixed(1)} s; ${again}:`);
      }
      if (answer.ok !== true) throw new Error(`a fresh clone's sync of ${repo} failed: ${JSON.stringify(answer)}`);
      const c = proxy.counts();
      down[label] = c.down;
      console.log(
        `   ${label.padEnd(10)} ${(took / 1000).toFixed(2)} s, ${KB(c.down)} from the remote, ${KB(c.up)} to it; ` +
          `the objects of the clone and its state repository grew ${KB(objectBytes() - before)}`,
      );
    }
  } finally {
    proxy.close();
  }
  console.log(`   history / one commit: ${(down.history / down['one commit']).toFixed(2)}x the bytes (goal <= 2x)`);
}
