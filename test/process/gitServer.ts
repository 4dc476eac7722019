// A git server for the sync process tests (docs/contract.md §13): `git daemon` with receive-pack on 127.0.0.1, clones
// of it configured for sync, and the CLI run in them. Real processes, real git, no fakes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { CLI, runCliIn, tempWorkspace } from './processHarness';

export interface Answer {
  ok: boolean;
  reason?: string;
  claimedBy?: string;
  request_id?: string;
  data?: Record<string, unknown> & { handoff?: { handoff_id: string; rev: number; claimed_by?: string } };
  sync?: Record<string, unknown>;
  [k: string]: unknown;
}

export function git(cwd: string, args: string[], input?: string): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', input });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

export async function waitForPort(port: number, up: boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (open === up) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`port ${port} did not become ${up ? 'open' : 'closed'}`);
}

/**
 * The sync consents `agentsync sync --enable` records go to a file of this test run, never the user's own
 * (~/.config/agentsync/sync-consent.json); every CLI these tests start inherits it.
 */
export function isolateSyncConsent(): void {
  process.env.AGENTSYNC_SYNC_CONSENT_FILE ??= path.join(tempWorkspace('sync-consent'), 'sync-consent.json');
}
isolateSyncConsent();

/**
 * One git server for each test of the enclosing `describe`: a fresh repository on a fresh port started before the
 * test, stopped after it (a test may stop and start it in between: it comes back on the same port and repository).
 */
export function gitServerPerTest(): GitServer {
  const server = new GitServer();
  beforeEach(() => server.startFresh());
  afterEach(() => server.stop());
  return server;
}

/** A bare repository served by `git daemon --enable=receive-pack`, and clones of it configured for sync. */
export class GitServer {
  base = '';
  daemon: ChildProcess | null = null;
  port = 0;

  /** A new empty repository on a new port: nothing a previous test wrote or listened on carries over. */
  async startFresh(): Promise<void> {
    await this.stop();
    this.base = '';
    this.port = 0;
    await this.start();
  }

  async start(): Promise<void> {
    this.base ||= tempWorkspace('sync-server');
    if (!fs.existsSync(path.join(this.base, 'shared.git'))) git(this.base, ['init', '-q', '--bare', 'shared.git']);
    this.port ||= await freePort();
    this.daemon = spawn(
      'git',
      [
        'daemon',
        '--enable=receive-pack',
        '--export-all',
        '--reuseaddr',
        `--base-path=${this.base}`,
        '--listen=127.0.0.1',
        `--port=${this.port}`,
      ],
      // Its own process group: the daemon forks a child per connection, and a child still serving one keeps the
      // listening socket open; stop() ends the whole group.
      { stdio: 'ignore', detached: true },
    );
    await waitForPort(this.port, true);
  }

  async stop(): Promise<void> {
    if (!this.daemon) return;
    const exited = new Promise((r) => this.daemon!.once('exit', r));
    try {
      process.kill(-this.daemon.pid!, 'SIGKILL');
    } catch {
      this.daemon.kill('SIGKILL');
    }
    await exited;
    this.daemon = null;
    await waitForPort(this.port, false);
  }

  get url(): string {
    return `git://127.0.0.1:${this.port}/shared.git`;
  }

  /** `cloneArgs`: more `git clone` options (e.g. `--depth=1`). */
  clone(name: string, sync: Record<string, unknown> = { remote: 'origin' }, cloneArgs: string[] = []): string {
    const dir = path.join(tempWorkspace(`sync-${name}`), 'ws');
    git(path.dirname(dir), ['clone', '-q', ...cloneArgs, this.url, 'ws']);
    fs.writeFileSync(path.join(dir, '.agentsync.json'), JSON.stringify({ sync }));
    // The clone's user agrees to the committed sync section, as each teammate does once (docs/contract.md §13).
    const enabled = runCliIn(dir, ['sync', '--enable']);
    if (enabled.code !== 0) throw new Error(`agentsync sync --enable in ${dir}: ${enabled.stdout}${enabled.stderr}`);
    return dir;
  }

  remoteLog(): string[] {
    const r = spawnSync('git', ['--git-dir', path.join(this.base, 'shared.git'), 'log', '--format=%H', 'refs/agentsync/state'], {
      encoding: 'utf8',
    });
    return r.status === 0 ? r.stdout.trim().split('\n') : [];
  }
}

/** `agentsync --dir ws --json ...` as a child process, not waiting for it (for races). */
export function cliAsync(ws: string, args: string[], input?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, '--dir', ws, '--json', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.stdin.end(input ?? '');
    p.on('exit', () => {
      try {
        resolve(JSON.parse(out) as Answer);
      } catch {
        reject(new Error(`no JSON answer from agentsync ${args.join(' ')}: ${out}${err}`));
      }
    });
  });
}

export function cli(ws: string, args: string[], input?: string): Answer {
  const r = runCliIn(ws, ['--json', ...args], input);
  try {
    return JSON.parse(r.stdout) as Answer;
  } catch {
    throw new Error(`no JSON answer from agentsync ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  }
}

export const create = (summary: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    action: 'createHandoff',
    ...extra,
    handoff: { from_agent: 'human', to_agents: ['claude', 'codex'], owner_mode: 'shared', summary },
  });

export function storeBytes(ws: string): Buffer | null {
  const f = path.join(ws, '.agentsync', 'handoffs.json');
  return fs.existsSync(f) ? fs.readFileSync(f) : null;
}

/** A record as the sync tests look at it. */
export type SyncedRecord = { handoff_id: string; summary: string; uid: string; status: string };

/** A clone's open records (its handoffs.json). */
export function openRecords(ws: string): SyncedRecord[] {
  return (JSON.parse(storeBytes(ws)!.toString()) as { handoffs: SyncedRecord[] }).handoffs;
}

/** The archived records of a clone's own archive (.agentsync/archive/*.jsonl), one per line. */
export function localArchive(ws: string): SyncedRecord[] {
  const dir = path.join(ws, '.agentsync', 'archive');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SyncedRecord);
}

export function ids(ws: string): string[] {
  const bytes = storeBytes(ws);
  if (!bytes) return [];
  return (JSON.parse(bytes.toString()) as { handoffs: { handoff_id: string }[] }).handoffs.map((h) => h.handoff_id).sort();
}

/** A TCP proxy in front of the daemon that counts its connections: each git fetch or push is one conversation. */
export async function countingProxy(target: number): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    connections++;
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => (client.destroy(), upstream.destroy()));
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => proxy.close(() => r()));
    },
  };
}
