// A test network of separate hosts on this machine: one server network namespace holding a bridge, `git daemon`
// (receive-pack on) serving bare repositories, and optionally a delaying TCP proxy in front of it; N client
// namespaces, each linked to the bridge by a veth pair. Clones made inside a client namespace reach the server only
// over that link, as a teammate's laptop or a CI VM would. Nothing is routed to or from the root namespace: the
// subnet below exists only inside the namespaces this harness creates, and it is the only address anything here
// connects to.
//
// Everything started here is ended by `destroy()` (processes in the namespaces killed by pid, namespaces deleted),
// also from a process 'exit' handler when a test fails or mocha is interrupted; namespaces left by a crashed run
// (their creator's pid is gone) are removed by the next `TestNet.create`. Servers also stop by themselves: the
// daemon under `timeout`, the proxy at the end of its lifetime or when its stdin (our pipe) closes.
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, FIXTURES, tempWorkspace, type CliRun } from '../processHarness';

/** The only subnet used: it exists inside this harness's namespaces and nowhere else. */
const SUBNET = '10.231.0';
const GIT_DAEMON = '/usr/lib/git-core/git-daemon';
/** Every namespace this harness makes is named `${PREFIX}<creator pid>-<n>-<role>`. */
const PREFIX = 'asnet';
const NAME_RE = new RegExp(`^${PREFIX}(\\d+)-\\d+-`);
export const DELAY_PROXY = path.join(FIXTURES, 'delayProxy.js');

let instances = 0;
const live = new Set<TestNet>();
process.on('exit', () => {
  for (const net of live) net.destroy();
});

function ip(args: string[]): SpawnSyncReturns<string> {
  return spawnSync('ip', args, { encoding: 'utf8' });
}

function ipOrThrow(args: string[]): string {
  const r = ip(args);
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : r.stderr.trim();
    throw new Error(
      `ip ${args.join(' ')} failed: ${why}. The sync network tests need root and iproute2 (Debian: apt-get install ` +
        `iproute2) with network namespaces and veth available in the kernel.`,
    );
  }
  return r.stdout;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Kills every process inside namespace `ns` (by pid, as `ip netns pids` lists them) and deletes the namespace. */
function removeNamespace(ns: string): void {
  const pids = ip(['netns', 'pids', ns]).stdout?.split('\n').filter(Boolean).map(Number) ?? [];
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  ip(['netns', 'delete', ns]);
}

/** Names of this harness's namespaces whose creating process is gone (a crashed or killed earlier run). */
export function leftoverNamespaces(): string[] {
  const names = (ip(['netns', 'list']).stdout ?? '').split('\n').map((l) => l.split(' ')[0]);
  return names.filter((n) => {
    const m = NAME_RE.exec(n);
    return m !== null && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]));
  });
}

export function removeLeftovers(): string[] {
  const gone = leftoverNamespaces();
  for (const ns of gone) removeNamespace(ns);
  return gone;
}

/** A finished process: its exit code (null when killed), the signal that killed it, and its output. */
export interface Run extends CliRun {
  signal: NodeJS.Signals | null;
}

/** Runs `cmd args` to completion, collecting its output; kills it with SIGKILL after `timeoutMs`. */
export function runAsync(
  cmd: string,
  args: string[],
  options: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => proc.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    proc.on('error', (e) => (clearTimeout(timer), reject(e)));
    proc.on('close', (code, signal) => (clearTimeout(timer), resolve({ code, signal, stdout, stderr })));
    proc.stdin.on('error', () => undefined);
    proc.stdin.end(options.input ?? '');
  });
}

/** A started server: its process, its stderr so far, and a way to stop it (idempotent). */
export interface Server {
  proc: ChildProcess;
  host: string;
  port: number;
  log(): string;
  stop(): Promise<void>;
}

export class TestNet {
  readonly serverNs: string;
  readonly clientNs: string[];
  readonly serverIp = `${SUBNET}.1`;
  /** Where bare repositories live; `git://<serverIp>/<name>` serves `<base>/<name>`. */
  readonly base: string;
  /** Where the servers' output goes (one file each). */
  readonly logDir: string;
  private started = 0;
  private readonly servers = new Set<Server>();
  private destroyed = false;

  private constructor(clients: number) {
    const tag = `${PREFIX}${process.pid}-${++instances}`;
    this.serverNs = `${tag}-srv`;
    this.clientNs = Array.from({ length: clients }, (_, i) => `${tag}-c${i}`);
    this.base = tempWorkspace('netbase');
    this.logDir = tempWorkspace('netlogs');
  }

  /** The server namespace with its bridge, and `clients` client namespaces linked to it (10.231.0.2, .3, …). */
  static create(clients: number): TestNet {
    if (clients < 1 || clients > 200) throw new Error(`TestNet.create: clients must be 1..200, got ${clients}`);
    removeLeftovers();
    const net = new TestNet(clients);
    live.add(net);
    try {
      net.build();
    } catch (e) {
      net.destroy();
      throw e;
    }
    return net;
  }

  clientIp(i: number): string {
    return `${SUBNET}.${i + 2}`;
  }

  private build(): void {
    const s = this.serverNs;
    ipOrThrow(['netns', 'add', s]);
    ipOrThrow(['-n', s, 'link', 'set', 'lo', 'up']);
    ipOrThrow(['-n', s, 'link', 'add', 'br0', 'type', 'bridge']);
    ipOrThrow(['-n', s, 'addr', 'add', `${this.serverIp}/24`, 'dev', 'br0']);
    ipOrThrow(['-n', s, 'link', 'set', 'br0', 'up']);
    this.clientNs.forEach((c, i) => {
      ipOrThrow(['netns', 'add', c]);
      ipOrThrow(['-n', c, 'link', 'set', 'lo', 'up']);
      // Both ends are created directly inside their namespaces: no name is ever taken in the root namespace.
      ipOrThrow(['link', 'add', `v${i}`, 'netns', s, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', c]);
      ipOrThrow(['-n', s, 'link', 'set', `v${i}`, 'master', 'br0']);
      ipOrThrow(['-n', s, 'link', 'set', `v${i}`, 'up']);
      ipOrThrow(['-n', c, 'addr', 'add', `${this.clientIp(i)}/24`, 'dev', 'eth0']);
      ipOrThrow(['-n', c, 'link', 'set', 'eth0', 'up']);
    });
  }

  /** `cmd args` inside namespace `ns`, to completion. */
  run(
    ns: string,
    cmd: string,
    args: string[],
    options: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
  ): Promise<Run> {
    return runAsync('ip', ['netns', 'exec', ns, cmd, ...args], options);
  }

  /** `cmd args` inside namespace `ns`, to completion; throws with its output unless it exits 0. */
  async runOk(ns: string, cmd: string, args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<string> {
    const r = await this.run(ns, cmd, args, options);
    if (r.code !== 0) throw new Error(`[${ns}] ${cmd} ${args.join(' ')} exited ${r.code ?? r.signal}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  }

  /** The argv that runs `cmd args` inside `ns` (for a caller that spawns and follows the process itself). */
  argv(ns: string, cmd: string, args: string[]): [string, string[]] {
    return ['ip', ['netns', 'exec', ns, cmd, ...args]];
  }

  /** `agentsync --dir <ws> ...args` on client `i`'s host. */
  cli(i: number, ws: string, args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<Run> {
    return this.run(this.clientNs[i], process.execPath, [CLI, '--dir', ws, ...args], options);
  }

  /** `git args` on client `i`'s host (no prompt ever). */
  git(i: number, args: string[]): Promise<string> {
    return this.runOk(this.clientNs[i], 'git', args);
  }

  /** A new empty bare repository `<base>/<name>` that the daemon serves as `git://<serverIp>/<name>`. */
  bareRepo(name: string): string {
    const dir = path.join(this.base, name);
    const r = spawnSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', dir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git init --bare ${dir}: ${r.stderr}`);
    return dir;
  }

  url(name: string, port = 9418): string {
    return `git://${this.serverIp}:${port}/${name}`;
  }

  /** `git daemon` with receive-pack in the server namespace on serverIp:9418; resolves once it accepts. */
  startDaemon(options: { lifetimeS?: number } = {}): Promise<Server> {
    const server = startGitDaemon({
      base: this.base,
      host: this.serverIp,
      port: 9418,
      logFile: path.join(this.logDir, `daemon-${++this.started}.log`),
      lifetimeS: options.lifetimeS,
      ns: this.serverNs,
    });
    return this.track(server);
  }

  /** The delaying proxy in the server namespace: serverIp:`port` → serverIp:9418, `delayMs` added each way. */
  startProxy(port: number, delayMs: number, options: { lifetimeS?: number } = {}): Promise<Server> {
    const server = startDelayProxy({
      host: this.serverIp,
      port,
      target: `${this.serverIp}:9418`,
      delayMs,
      logFile: path.join(this.logDir, `proxy-${++this.started}.log`),
      lifetimeS: options.lifetimeS,
      ns: this.serverNs,
    });
    return this.track(server);
  }

  private async track(pending: Promise<Server>): Promise<Server> {
    const server = await pending;
    this.servers.add(server);
    return server;
  }

  /** Ends every process in the namespaces and deletes them; the bare repositories' folder too. Idempotent. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    live.delete(this);
    for (const s of this.servers) killGroup(s.proc.pid!);
    for (const ns of [...this.clientNs, this.serverNs]) removeNamespace(ns);
    fs.rmSync(this.base, { recursive: true, force: true });
    fs.rmSync(this.logDir, { recursive: true, force: true });
  }

  /** Whether all of this net's namespaces are gone (for the harness's own test). */
  gone(): boolean {
    const names = new Set((ip(['netns', 'list']).stdout ?? '').split('\n').map((l) => l.split(' ')[0]));
    return ![this.serverNs, ...this.clientNs].some((n) => names.has(n));
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function inNs(ns: string | undefined, cmd: string, args: string[]): [string, string[]] {
  return ns ? ['ip', ['netns', 'exec', ns, cmd, ...args]] : [cmd, args];
}

/**
 * Starts a server process and resolves once its log matches `ready` (rejects on exit or timeout). Its output goes
 * to `logFile`, not to a pipe: a parent that blocks (a bench in spawnSync) can never stall the server's writes.
 */
function startServer(argv: [string, string[]], host: string, port: number, ready: RegExp, what: string, logFile: string): Promise<Server> {
  const fd = fs.openSync(logFile, 'a');
  // Its own process group (`timeout` keeps the group it is started in), so that stopping it ends the daemon's
  // children too (the daemon forks one per connection). Its stdin is our pipe: the proxy ends when it closes.
  const proc = spawn(argv[0], argv[1], { stdio: ['pipe', fd, fd], detached: true });
  fs.closeSync(fd);
  const log = () => {
    try {
      return fs.readFileSync(logFile, 'utf8').slice(-64 * 1024);
    } catch {
      return '';
    }
  };
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const server: Server = {
    proc,
    host,
    port,
    log,
    async stop() {
      killGroup(proc.pid!);
      await exited;
      // The group is empty once its last member was reaped; until then a listening socket may still accept.
      for (let i = 0; i < 500 && groupAlive(proc.pid!); i++) await new Promise((r) => setTimeout(r, 10));
    },
  };
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (ready.test(log())) {
        clearInterval(poll);
        resolve(server);
      } else if (Date.now() - started > 15_000) {
        clearInterval(poll);
        killGroup(proc.pid!);
        reject(new Error(`${what} did not start within 15 s: ${log()}`));
      }
    }, 20);
    proc.on('exit', (code, signal) => {
      clearInterval(poll);
      reject(new Error(`${what} exited (${code ?? signal}) before it was ready: ${log()}`));
    });
  });
}

/**
 * `git daemon --enable=receive-pack --export-all` serving `base` on host:port (inside `ns` when given), under
 * `timeout` so that it ends by itself after `lifetimeS` (default 900 s) even if nobody stops it.
 */
export function startGitDaemon(o: {
  base: string;
  host: string;
  port: number;
  logFile: string;
  lifetimeS?: number;
  ns?: string;
}): Promise<Server> {
  const args = [
    '-s',
    'KILL',
    String(o.lifetimeS ?? 900),
    GIT_DAEMON,
    '--verbose',
    '--reuseaddr',
    '--export-all',
    '--enable=receive-pack',
    '--informative-errors',
    '--max-connections=0',
    '--timeout=60',
    '--init-timeout=20',
    `--base-path=${o.base}`,
    `--listen=${o.host}`,
    `--port=${o.port}`,
    o.base,
  ];
  return startServer(inNs(o.ns, 'timeout', args), o.host, o.port, /Ready to rumble/, `git daemon on ${o.host}:${o.port}`, o.logFile);
}

/**
 * The delaying TCP proxy (test/process/fixtures/delayProxy.js) on host:port forwarding to `target`, adding `delayMs`
 * to every chunk each way (2 × delayMs per round trip). Port 0 picks a free one; `server.port` is the one taken.
 */
export async function startDelayProxy(o: {
  host: string;
  port: number;
  target: string;
  delayMs: number;
  logFile: string;
  lifetimeS?: number;
  ns?: string;
}): Promise<Server> {
  const args = [
    DELAY_PROXY,
    `--listen=${o.host}:${o.port}`,
    `--target=${o.target}`,
    `--delay-ms=${o.delayMs}`,
    `--lifetime-s=${o.lifetimeS ?? 900}`,
  ];
  const server = await startServer(
    inNs(o.ns, process.execPath, args),
    o.host,
    o.port,
    /^LISTENING \d+$/m,
    `delay proxy on ${o.host}:${o.port}`,
    o.logFile,
  );
  server.port = Number(/^LISTENING (\d+)$/m.exec(server.log())![1]);
  return server;
}
