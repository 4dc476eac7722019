// What bench/sync-bench.mjs builds its sync-mode figures on (docs/contract.md §13): workspaces whose shared state the
// product itself seeded (records written to the clone's own .agentsync/handoffs.json, as a pull would bring them, then
// joined and pushed by `agentsync sync`, and upgraded by `agentsync sync --upgrade-format` for a tree format), a ref's long
// history written fast with `git fast-import` (format-1 commits, each one write), a TCP proxy that counts the bytes a
// conversation with the remote costs, and a `git` on PATH that logs every git process AgentSync starts.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { finishedHandoff, queuedHandoff, uid } from './benchStores.mjs';
import { ROOT } from './benchSupport.mjs';

export const CLI = path.join(ROOT, 'bin/agentsync.js');
export const REF = 'refs/agentsync/state';
export const AGENTS = ['bench', 'hist', 'claude', 'codex'];

export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}
export const git = (args, cwd) => run('git', args, { cwd });
export const cliJson = (dir, args, env) => run(process.execPath, [CLI, '--dir', dir, '--json', ...args], env ? { env } : {});

/** A confirmed write's answer, or an error saying what came back instead (a figure is never printed for less). */
export function confirmed(stdout, what) {
  const a = JSON.parse(stdout.trim().split('\n').pop());
  if (a.ok !== true || a.data?.sync?.confirmed !== true) throw new Error(`${what} was not confirmed by the remote: ${stdout}`);
  return a;
}

/** `agentsync --json sync` in `ws`, checked: answered ok on the commit the remote's ref now holds. */
export function syncNow(ws, bare, what, env) {
  const out = cliJson(ws, ['sync'], env);
  const a = JSON.parse(out.trim().split('\n').pop());
  const remote = git(['--git-dir', bare, 'rev-parse', REF]).trim();
  if (a.ok !== true || a.data?.commit !== remote) throw new Error(`${what}: agentsync sync did not end on the remote's ${remote}: ${out}`);
  return a;
}

/** Bytes of every file under `dir` (a repository's objects/: loose objects and packs alike). */
export function treeBytes(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath ?? e.path, e.name)).size;
  }
  return total;
}

export class FormatUnavailable extends Error {}

/**
 * `agentsync sync --upgrade-format` in `ws`, which writes the build's newest tree format (one blob per record in
 * fan-out trees), checked to be `format`. A build without the option, or whose newest format is another, throws
 * FormatUnavailable (the bench says so rather than measure one format under another's name).
 */
export function upgradeFormat(ws, format, env = process.env) {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, '--json', 'sync', '--upgrade-format'], { encoding: 'utf8', env });
  if (r.status === 2 && /unknown option/i.test(r.stdout + r.stderr)) {
    throw new FormatUnavailable(`format ${format} is unavailable in this build: \`agentsync sync --upgrade-format\` is an unknown option`);
  }
  if (r.status !== 0) throw new Error(`agentsync sync --upgrade-format in ${ws} exited ${r.status}: ${r.stdout}${r.stderr}`);
  const answer = JSON.parse(r.stdout.trim().split('\n').pop());
  const common = path.resolve(ws, git(['rev-parse', '--git-common-dir'], ws).trim());
  const written = git(['--git-dir', path.join(common, 'agentsync', '@state.git'), 'show', `${answer.data.commit}:format`]).trim();
  if (written !== String(format))
    throw new FormatUnavailable(`this build's --upgrade-format writes shared format ${written}, not ${format}`);
  return answer;
}

/** A bare repository `<name>.git` under the daemon's base, never gc'd (its objects/ growth is a figure). */
export function bareRepo(base, name) {
  const bare = path.join(base, `${name}.git`);
  git(['init', '--bare', '--quiet', '--initial-branch=main', bare]);
  for (const [k, v] of [
    ['gc.auto', '0'],
    ['receive.autogc', 'false'],
  ])
    git(['--git-dir', bare, 'config', k, v]);
  return bare;
}

/** A clone of `url` in `dir` whose user agreed to sync (as each teammate does once, docs/contract.md §13). */
export function consentingClone(url, dir) {
  git(['clone', '--quiet', url, dir]);
  run(process.execPath, [CLI, '--dir', dir, 'sync', '--enable']);
  return dir;
}

/**
 * A workspace in sync mode on its own bare repository `<name>.git` served at `url`: `agentsync init`, the sync section
 * committed and pushed, then `open` queued and `finished` terminal records (merged or escalated, dated 2024, so the
 * archive may take them) written to the clone's .agentsync/handoffs.json and joined to the shared state by
 * `agentsync sync`; with a tree format (2, 3), `agentsync sync --upgrade-format` after that. Returns the clone, the bare
 * repository, the queued ids in order (`next`: the first not yet claimed) and the seconds the product took.
 */
/**
 * `agentsync init` in the git checkout `ws`, with the bench's agents as humans and sync on through `origin`, committed
 * and pushed to `pushTo`'s main branch: what a team commits once to turn sync on.
 */
export function commitSyncOn(ws, humans, pushTo) {
  run(process.execPath, [CLI, '--dir', ws, 'init']);
  const configFile = path.join(ws, '.agentsync.json');
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  config.humans = humans;
  config.sync = { remote: 'origin', ref: REF, offline: 'refuse', interval_s: 30 };
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
  git(['add', '-A'], ws);
  git(['-c', 'user.name=bench', '-c', 'user.email=bench@test.invalid', 'commit', '--quiet', '-m', 'sync on'], ws);
  git(['push', '--quiet', pushTo, 'HEAD:refs/heads/main'], ws);
}

export function syncedWorkspace({ base, work, name, url, open, finished, format }) {
  const bare = bareRepo(base, name);
  const ws = path.join(work, name);
  git(['clone', '--quiet', url, ws]);
  commitSyncOn(ws, AGENTS, 'origin');
  run(process.execPath, [CLI, '--dir', ws, 'sync', '--enable']);
  const file = path.join(ws, '.agentsync/handoffs.json');
  const store = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (let i = 0; i < open; i++) store.handoffs.push(queuedHandoff(i));
  for (let i = 0; i < finished; i++) store.handoffs.push(finishedHandoff(i));
  fs.writeFileSync(file, JSON.stringify(store, null, 2) + '\n');
  const t0 = performance.now();
  syncNow(ws, bare, `the seeding of ${open + finished} records`);
  if (format > 1) upgradeFormat(ws, format);
  const seedS = (performance.now() - t0) / 1000;
  const ids = JSON.parse(fs.readFileSync(file, 'utf8'))
    .handoffs.filter((h) => h.status === 'queued')
    .map((h) => h.handoff_id)
    .sort();
  return { ws, bare, ids, next: 0, seedS, open, finished };
}

/** The next queued id of a workspace nobody claimed yet. */
export function nextQueued(w) {
  if (w.next >= w.ids.length) throw new Error(`all ${w.ids.length} queued handoffs of ${w.ws} are claimed: raise --open`);
  return w.ids[w.next++];
}

/** Where the records of a workspace are now: the local store (it follows the shared state) and the archive's lines. */
export function recordsAt(ws, bare) {
  const local = JSON.parse(fs.readFileSync(path.join(ws, '.agentsync/handoffs.json'), 'utf8')).handoffs.length;
  const archiveDir = path.join(ws, '.agentsync/archive');
  let archived = 0;
  if (fs.existsSync(archiveDir)) {
    for (const f of fs.readdirSync(archiveDir))
      archived += fs.readFileSync(path.join(archiveDir, f), 'utf8').split('\n').filter(Boolean).length;
  }
  const listing = git(['--git-dir', bare, 'ls-tree', '-r', '-l', REF]).split('\n').filter(Boolean);
  const blobBytes = listing.reduce((n, l) => n + Number(l.split(/\s+/)[3] || 0), 0);
  const tree = `${listing.length} blobs, ${(blobBytes / 1024 / 1024).toFixed(1)} MiB`;
  return `local handoffs.json ${local} records, local archive ${archived} lines; the ref's tree: ${tree}`;
}

/**
 * `writes` more commits on `bare`'s REF through `git fast-import`, each one format-1 write as the product makes it: an
 * updateTodos by `agent` on the next of the handoffs it holds, its record's `rev` and `updated_at` moved on, and the
 * answer appended to ledger.jsonl (the newest 1,000 kept, src/core/store/sync/sharedLedger.ts). fast-import deltas a
 * blob against the blob before it in its input, so every handoffs.json comes first, then every ledger.jsonl, then
 * the commits naming them: each version a delta of the one before, as a remote's `git repack` would store them.
 * Seconds taken.
 */
export async function fastImportHistory(bare, writes, agent) {
  const t0 = performance.now();
  const parent = git(['--git-dir', bare, 'rev-parse', REF]).trim();
  const storeText = git(['--git-dir', bare, 'cat-file', 'blob', `${REF}:handoffs.json`]);
  const ledgerText = git(['--git-dir', bare, 'cat-file', 'blob', `${REF}:ledger.jsonl`]);
  const start = Math.floor(Date.now() / 1000) - writes;
  /** Write n's files, the state before it being what write n - 1 left in `state`. */
  const step = (state, n) => {
    const h = state.held[n % state.held.length];
    const at = new Date((start + n) * 1000).toISOString();
    h.todos = [{ id: '1', content: `step ${n}`, status: 'in_progress', priority: 'medium' }];
    h.rev += 1;
    h.updated_at = at;
    const requestId = uid(5_000_000 + n);
    const hash = (n * 2654435761).toString(16).padStart(32, '0').slice(-32);
    const response = { ok: true, action: 'updateTodos', request_id: requestId, timestamp: at, data: { handoff: h } };
    state.ledger.push(JSON.stringify({ request_id: requestId, hash, response }));
    if (state.ledger.length > 1000) state.ledger.shift();
  };
  const fresh = () => {
    const store = JSON.parse(storeText);
    const held = store.handoffs.filter((h) => h.claimed_by === agent);
    if (held.length === 0) throw new Error(`no handoff of ${bare}'s ref is claimed by ${agent}`);
    return { store, held, ledger: ledgerText.split('\n').filter(Boolean) };
  };
  const p = spawn('git', ['--git-dir', bare, 'fast-import', '--quiet', '--done'], { stdio: ['pipe', 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => p.on('close', resolve));
  const put = (text) => (p.stdin.write(text) ? null : new Promise((r) => p.stdin.once('drain', r)));
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  // Marks: handoffs.json of write n is :(n + 1), its ledger.jsonl :(writes + n + 1).
  for (const [first, file] of [
    [1, (st) => JSON.stringify(st.store, null, 2) + '\n'],
    [writes + 1, (st) => st.ledger.join('\n') + '\n'],
  ]) {
    const state = fresh();
    for (let n = 0; n < writes; n++) {
      step(state, n);
      await put(`blob\nmark :${first + n}\n${data(file(state))}`);
    }
  }
  const { held } = fresh();
  for (let n = 0; n < writes; n++) {
    const message = `agentsync: 1 change(s)\n\nupdateTodos ${held[n % held.length].handoff_id} by ${agent}`;
    await put(
      `commit ${REF}\ncommitter AgentSync <agentsync@localhost> ${start + n} +0000\n${data(message)}` +
        (n === 0 ? `from ${parent}\n` : '') +
        `M 100644 :${n + 1} handoffs.json\nM 100644 :${writes + n + 1} ledger.jsonl\n`,
    );
  }
  await put('done\n');
  p.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import into ${bare} exited ${code}`);
  return (performance.now() - t0) / 1000;
}

/** A TCP proxy on 127.0.0.1 to `targetPort` counting the bytes each way (this process must not block while it runs). */
export function byteProxy(targetPort) {
  const counts = { up: 0, down: 0 };
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => (client.destroy(), upstream.destroy()));
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (d) => (counts.up += d.length));
    upstream.on('data', (d) => (counts.down += d.length));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        reset: () => ((counts.up = 0), (counts.down = 0)),
        counts: () => ({ ...counts }),
        close: () => {
          for (const s of sockets) s.destroy();
          server.close();
        },
      }),
    ),
  );
}

/**
 * A child process's stdout, awaited (so that a byteProxy in this process keeps serving meanwhile); a non-zero exit
 * throws unless `anyExit`.
 */
export function runAsync(cmd, args, { anyExit = false, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    p.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    p.on('close', (code) =>
      code === 0 || (anyExit && code !== null) ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${out}${err}`)),
    );
  });
}

/**
 * A folder holding a `git` that appends its arguments to a log (each ended by \x1f, each process by \x1e: a commit
 * message spans lines) and runs the real git: put first on PATH, it counts the git processes AgentSync starts (git's
 * own children run from git's exec path, not counted). `take()`: each process's arguments since the last take.
 */
export function gitShim(dir) {
  const real = run('sh', ['-c', 'command -v git']).trim();
  const log = path.join(dir, 'git-calls.log');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'git'), `#!/bin/sh\n{ printf '%s\\037' "$@"; printf '\\036'; } >> '${log}'\nexec '${real}' "$@"\n`, {
    mode: 0o755,
  });
  return {
    env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH}` },
    take: () => {
      const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
      fs.rmSync(log, { force: true });
      return text
        .split('\x1e')
        .filter(Boolean)
        .map((p) => p.split('\x1f').slice(0, -1));
    },
  };
}
