// Sets the demo's throw-away workspace copy up so every feature shows in the first minute
// (scripts/editor/serve-demo.mjs): a git repository with a changed file (End Session finds it), a stale handoff
// assigned to you (the stale badge; staleAfterHours 24), another agent's live claim on files (the ⇄ badge on
// src/auth/session.ts), and a chain (work Claude passed to Copilot, drawn under its parent). Only ever run on the copy.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
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
  return move(store);
}

/** @returns {{ chainId: string }} the handoff Claude passed to Copilot (the demo reveals it under its parent) */
export function prepareDemoScene(workspace) {
  const configFile = join(workspace, '.agentsync.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8'));
  writeFileSync(configFile, JSON.stringify({ ...config, staleAfterHours: 24 }, null, 2) + '\n');

  const storeFile = join(workspace, '.agentsync/handoffs.json');
  const store = shiftTimes(JSON.parse(readFileSync(storeFile, 'utf8')), 10 * 60_000);
  // Waiting for you (Codex → you and Claude) for 30 hours: stale, so the badge counts it.
  const stale = store.handoffs.find((h) => h.handoff_id === 'HO-20261123-005');
  if (stale) {
    const then = new Date(Date.now() - 30 * 3_600_000).toISOString();
    stale.updated_at = then;
    stale.created_at = then;
    for (const e of stale.state_history) e.timestamp = then;
  }
  writeFileSync(storeFile, JSON.stringify(store, null, 2) + '\n');

  run('git', ['init', '-q', '-b', 'main'], workspace);
  run('git', ['-c', 'user.name=Demo', '-c', 'user.email=demo@example.com', 'add', '-A'], workspace);
  run(
    'git',
    ['-c', 'user.name=Demo', '-c', 'user.email=demo@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'demo'],
    workspace,
  );

  // Through the CLI, as agents do: Claude claims the shared review (its files become hot for you) and passes part of
  // it to Copilot, who returns it to Claude: a chain.
  agentsync(workspace, 'claim', 'HO-20261123-001', '--agent', 'claude');
  const passed = agentsync(
    workspace,
    'pass',
    'HO-20261123-001',
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
