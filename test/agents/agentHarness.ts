// What the real-agent tests share (test/agents/): the agents' CLIs installed by scripts/agents/install-agent-clis.sh
// into .agent-clis/, a workspace with AgentSync's instruction files and hook packs, an `agentsync` command on the
// agents' PATH (a wrapper around this checkout's bin/agentsync.js), and each agent run with a private HOME and an
// environment that names no real model or account, against the scripted model server (modelServer.ts).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
/** The CLI under test; AGENTSYNC_CLI points the tests at another build (e.g. an older one, to see a test fail there). */
export const CLI = process.env.AGENTSYNC_CLI ?? path.join(REPO_ROOT, 'bin/agentsync.js');
export const AGENT_CLIS = process.env.AGENT_CLIS_DIR ?? path.join(REPO_ROOT, '.agent-clis');

/** The agent's binary from .agent-clis/; throws with what to run when it is missing (these tests never skip). */
export function agentBin(name: 'claude' | 'codex' | 'copilot' | 'gemini' | 'opencode'): string {
  const bin = path.join(AGENT_CLIS, 'node_modules', '.bin', name);
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run scripts/agents/install-agent-clis.sh first (npm run test:agents does)`);
  return bin;
}

export function agentsync(ws: string, args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, ...args], { encoding: 'utf8', input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function request(ws: string, body: object): { ok: boolean; data: Record<string, unknown>; message?: string } {
  const r = agentsync(ws, ['request', '-'], JSON.stringify(body));
  return JSON.parse(r.stdout) as { ok: boolean; data: Record<string, unknown>; message?: string };
}

export interface StoredHandoff {
  handoff_id: string;
  status: string;
  claimed_by?: string | null;
  claimed_at?: string;
  updated_at?: string;
  lease_expires_at?: string;
  files?: string[];
}

/** The workspace's one live record: in the clone's home under the git common dir (docs/contract.md §14) when there is one. */
export function liveStoreFile(ws: string): string {
  const home = path.join(ws, '.git', 'agentsync', '@', 'handoffs.json');
  return fs.existsSync(home) ? home : path.join(ws, '.agentsync/handoffs.json');
}

export function readStore(ws: string): StoredHandoff[] {
  return (JSON.parse(fs.readFileSync(liveStoreFile(ws), 'utf8')) as { handoffs: StoredHandoff[] }).handoffs;
}

/** Audit lines written since `from` (a line count), as objects. */
export function auditSince(ws: string, from: number): { action: string; agent: string; handoff_id: string | null }[] {
  return auditLines(ws)
    .slice(from)
    .map((l) => JSON.parse(l) as { action: string; agent: string; handoff_id: string | null });
}

export function auditLines(ws: string): string[] {
  const dir = path.join(ws, '.agentsync/audit');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean));
}

export interface Scene {
  /** The workspace: a git repository with AgentSync initialized, hooks included. */
  ws: string;
  /** A private HOME for the agent. */
  home: string;
  /** PATH with the `agentsync` wrapper first. */
  pathVar: string;
  /** The handoff the agent under test holds (its lease half used, so the post-tool hook renews it). */
  mine: string;
  /** The handoff another agent holds, listing `contested`. */
  theirs: string;
  other: string;
  contested: string;
  leaseBefore: string;
  auditFrom: number;
  /** A subfolder of the workspace (holding one file) the agent's shell runs `agentsync` from. */
  sub: string;
  /** Everything under `sub` before the run (treeOf). */
  subBefore: string[];
  /** A handoff for the agent, not yet claimed: the agent claims it through the drop zone. */
  queued: string;
}

/** Every path under `dir`, relative to it, sorted (folders end in /). */
export function treeOf(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)) + (e.isDirectory() ? '/' : ''))
    .sort();
}

/**
 * A git workspace (`ws`) where `agentsync init --hooks` ran, with the agents' capabilities given (those the config
 * lacks) and `config` over its .agentsync.json; a home folder for the agent's CLI (`home`) and the PATH it runs with,
 * whose first folder holds an `agentsync` that runs this checkout's CLI.
 */
export function agentWorkspace(
  prefix: string,
  capabilities: Record<string, string[]>,
  config: object = {},
): { ws: string; home: string; pathVar: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `agentsync-agent-${prefix}-`));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const bin = path.join(root, 'bin');
  for (const d of [ws, home, bin]) fs.mkdirSync(d, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: ws });
  fs.writeFileSync(path.join(bin, 'agentsync'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  const pathVar = [bin, path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  // A login shell (Codex runs its shell through bash -lc) rebuilds PATH from /etc/profile, then reads ~/.profile.
  fs.writeFileSync(path.join(home, '.profile'), `export PATH="${pathVar}:$PATH"\n`);
  const init = agentsync(ws, ['init', '--hooks']);
  if (init.code !== 0) throw new Error(`init --hooks failed: ${init.stdout}${init.stderr}`);
  const cfgFile = path.join(ws, '.agentsync.json');
  const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8')) as { agentCapabilities: Record<string, string[]> };
  for (const [a, caps] of Object.entries(capabilities)) cfg.agentCapabilities[a] ??= caps;
  fs.writeFileSync(cfgFile, JSON.stringify({ ...cfg, ...config }, null, 2) + '\n');
  return { ws, home, pathVar };
}

/**
 * A workspace where `agent` holds one handoff (lease past half its time) and `other` holds another that lists
 * src/shared.ts (lease live); requireHandoffOnEndSession on, so a stop while holding work is blocked once.
 */
export function scene(agent: string, other: string, config: object = {}): Scene {
  const caps = { [agent]: ['code_patch'], [other]: ['code_patch'] };
  const { ws, home, pathVar } = agentWorkspace(agent, caps, { requireHandoffOnEndSession: true, ...config });
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src/shared.ts'), 'export const shared = 1;\n');
  fs.mkdirSync(path.join(ws, 'src/sub'));
  fs.writeFileSync(path.join(ws, 'src/sub/index.ts'), 'export const sub = 1;\n');
  const create = (from: string, to: string, summary: string, files: string[], claim = true) => {
    // The scene is set by a person: a human author starts no lineage (docs/contract.md §6, loops across separate
    // handoffs), so the agents' crossed handoffs are a starting state, not a loop the product refuses.
    const r = request(ws, {
      action: 'createHandoff',
      agent: 'human',
      handoff: { from_agent: from, to_agents: [to], owner_mode: 'single', summary, files },
    });
    if (!r.ok) throw new Error(`createHandoff: ${JSON.stringify(r)}`);
    const id = (r.data.handoff as { handoff_id: string }).handoff_id;
    if (!claim) return id;
    const c = request(ws, { action: 'claimHandoff', handoffId: id, agent: to });
    if (!c.ok) throw new Error(`claimHandoff: ${JSON.stringify(c)}`);
    return id;
  };
  const mine = create(other, agent, 'Write the release notes', ['docs/release.md']);
  const theirs = create(agent, other, 'Refactor the shared module', ['src/shared.ts']);
  const queued = create(other, agent, 'Check the changelog', ['docs/changelog.md'], false);
  // Age the agent's own lease: claimed 20 minutes ago, 10 left, so the next tool call renews it.
  const storeFile = liveStoreFile(ws);
  const store = JSON.parse(fs.readFileSync(storeFile, 'utf8')) as { handoffs: StoredHandoff[] };
  const h = store.handoffs.find((x) => x.handoff_id === mine)!;
  const now = Date.now();
  h.claimed_at = h.updated_at = new Date(now - 20 * 60_000).toISOString();
  h.lease_expires_at = new Date(now + 10 * 60_000).toISOString();
  fs.writeFileSync(storeFile, JSON.stringify(store, null, 2) + '\n');
  spawnSync('git', ['add', '-A'], { cwd: ws });
  spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: ws });
  return {
    ws,
    home,
    pathVar,
    mine,
    theirs,
    other,
    contested: 'src/shared.ts',
    leaseBefore: h.lease_expires_at,
    auditFrom: auditLines(ws).length,
    sub: 'src/sub',
    subBefore: treeOf(path.join(ws, 'src/sub')),
    queued,
  };
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an agent's CLI to its end (killed after `timeoutMs`), without blocking the model server in this process. */
export function runAgent(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<AgentRun> {
  return new Promise((resolve) => {
    const p = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs ?? 180_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `agentsync watch` on the workspace, as a child of the test, ready (it printed `watching …`); `stop` ends it. */
export async function startWatch(ws: string): Promise<{ stop: () => Promise<void>; output: () => string }> {
  const p = spawn(process.execPath, [CLI, '--dir', ws, 'watch', '--verbose', '--interval-ms', '200'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => p.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agentsync watch did not start: ${out}`)), 30_000);
    const on = (d: Buffer) => {
      out += d.toString();
      if (/^watching /m.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    p.stdout.on('data', on);
    p.stderr.on('data', on);
    p.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`agentsync watch exited ${code}: ${out}`));
    });
  });
  return {
    output: () => out,
    stop: async () => {
      if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
      await exited;
    },
  };
}

/** The environment an agent runs in: nothing from this process (no real model, key or account), plus `extra`. */
export function agentEnv(s: Pick<Scene, 'pathVar' | 'home'>, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: s.pathVar, HOME: s.home, LANG: 'C.UTF-8', TERM: 'dumb', TMPDIR: os.tmpdir(), NO_COLOR: '1', ...extra };
}
