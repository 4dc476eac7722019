// Sets the demo's throw-away workspace copy up so every feature shows in the first minute
// (scripts/editor/serve-demo.mjs): a git repository with a changed file (End Session finds it), a stale handoff
// assigned to you (the stale badge; staleAfterHours 24), another agent's live claim on files (the ⇄ badge on
// src/auth/session.ts), and a chain (work Claude passed to Copilot, drawn under its parent). Only ever run on the copy.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './server.mjs';

const CLI = join(REPO_ROOT, 'bin/agentsync.js');

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`[demo] ${cmd} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

const agentsync = (workspace, ...args) => run(process.execPath, [CLI, '--dir', workspace, ...args], workspace);

/** Every timestamp of the store moved by the same amount, so the newest is `newest` ago and the order is kept. */
function shiftTimes(store, newestAgoMs) {
  const stamps = [];
  const visit = (v, key) => {
    if (typeof v === 'string' && /(_at|timestamp)$/.test(key ?? '') && !Number.isNaN(Date.parse(v))) stamps.push(Date.parse(v));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
  };
  visit(store);
  const shift = Date.now() - newestAgoMs - Math.max(...stamps);
  const move = (v, key) => {
    if (typeof v === 'string' && /(_at|timestamp)$/.test(key ?? '') && !Number.isNaN(Date.parse(v)))
      return new Date(Date.parse(v) + shift).toISOString();
    if (Array.isArray(v)) return v.map((x) => move(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, move(x, k)]));
    return v;
  };
  return { store: move(store), shift };
}

/**
 * The committed demo store was made on one day; its times are moved to now, so its ids are renamed to match:
 * `HO-<day of created_at>-NNN`, numbered per day in creation order, as the CLI would have named them. Returns
 * old id → new id.
 */
function idsForTheirDays(handoffs) {
  const perDay = new Map();
  const ids = new Map();
  for (const h of [...handoffs].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))) {
    const day = h.created_at.slice(0, 10).replace(/-/g, '');
    const n = (perDay.get(day) ?? 0) + 1;
    perDay.set(day, n);
    ids.set(h.handoff_id, `HO-${day}-${String(n).padStart(3, '0')}`);
  }
  return ids;
}

const renameIds = (text, ids) => text.replace(/HO-\d{8}-\d{3}/g, (id) => ids.get(id) ?? id);

/**
 * The audit lines moved by the same `shift` (those of a uid in `timeOf` to its time) and renamed like the store, in
 * the month files of their new times.
 */
function moveAudit(workspace, shift, ids, timeOf) {
  const dir = join(workspace, '.agentsync/audit');
  const byMonth = new Map();
  for (const name of readdirSync(dir).filter((n) => /^\d{4}-\d{2}\.jsonl$/.test(n))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean)) {
      const entry = JSON.parse(renameIds(line, ids));
      entry.ts = timeOf.get(entry.uid) ?? new Date(Date.parse(entry.ts) + shift).toISOString();
      const month = entry.ts.slice(0, 7);
      byMonth.set(month, [...(byMonth.get(month) ?? []), JSON.stringify(entry)]);
    }
    rmSync(join(dir, name));
  }
  for (const [month, lines] of byMonth) writeFileSync(join(dir, `${month}.jsonl`), lines.join('\n') + '\n');
}

/**
 * @returns {{ chainId: string }} the handoff Claude passed to Copilot (the demo reveals it under its parent)
 */
export function prepareDemoScene(workspace) {
  const configFile = join(workspace, '.agentsync.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8'));
  writeFileSync(configFile, JSON.stringify({ ...config, staleAfterHours: 24 }, null, 2) + '\n');

  const storeFile = join(workspace, '.agentsync/handoffs.json');
  const { store, shift } = shiftTimes(JSON.parse(readFileSync(storeFile, 'utf8')), 10 * 60_000);
  // Waiting for you (Codex → you and Claude) for 30 hours: stale, so the badge counts it.
  const stale = store.handoffs.find((h) => h.handoff_id === 'HO-20261123-005');
  if (stale) {
    const then = new Date(Date.now() - 30 * 3_600_000).toISOString();
    stale.updated_at = then;
    stale.created_at = then;
    for (const e of stale.state_history) e.timestamp = then;
  }
  const ids = idsForTheirDays(store.handoffs);
  writeFileSync(storeFile, renameIds(JSON.stringify(store, null, 2), ids) + '\n');
  moveAudit(workspace, shift, ids, new Map(stale ? [[stale.uid, stale.created_at]] : []));
  const trackerFile = join(workspace, 'AgentTracker.md');
  writeFileSync(trackerFile, renameIds(readFileSync(trackerFile, 'utf8'), ids));
  const review = ids.get('HO-20261123-001');

  run('git', ['init', '-q', '-b', 'main'], workspace);
  run('git', ['-c', 'user.name=Demo', '-c', 'user.email=demo@example.com', 'add', '-A'], workspace);
  run(
    'git',
    ['-c', 'user.name=Demo', '-c', 'user.email=demo@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'demo'],
    workspace,
  );

  // Through the CLI, as agents do: Claude claims the shared review (its files become hot for you) and passes part of
  // it to Copilot, who returns it to Claude: a chain.
  agentsync(workspace, 'claim', review, '--agent', 'claude');
  const passed = agentsync(
    workspace,
    'pass',
    review,
    '--agent',
    'claude',
    '--to',
    'copilot',
    '--reason',
    'code_review',
    '--summary',
    'Check the refresh path for a race',
    '--json',
  );
  const chainId = JSON.parse(passed).data.handoff.handoff_id;

  // A change of yours since the last commit: End Session lists it as a hot file.
  appendFileSync(join(workspace, 'src/auth/session.ts'), '\n// TODO(demo): retry the refresh once before logging out.\n');
  return { chainId };
}
