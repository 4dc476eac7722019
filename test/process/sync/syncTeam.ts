// A team on the test network (netHarness.ts): one bare repository served by `git daemon` in the server namespace,
// seeded with an AgentSync workspace whose committed .agentsync.json turns sync on (docs/contract.md §13), and one
// clone per client host, each cloned over git:// from inside its own namespace.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffsFileSchema, type Handoff } from '../../../src/core/domain/handoffSchema';
import { CLI, FIXTURES, startChild, tempWorkspace, type Child } from '../processHarness';
import { TestNet, type Run, type Server } from './netHarness';
import { isolateSyncConsent } from '../gitServer';

isolateSyncConsent();

export const SYNC_REF = 'refs/agentsync/state';
export const BARRIER = path.join(FIXTURES, 'barrierCli.js');

export interface TeamOptions {
  clones: number;
  /** Names allowed to claim any handoff (config `humans`), so that only a race decides a claim. */
  humans?: string[];
  offline?: 'refuse' | 'local';
}

export class SyncTeam {
  daemon!: Server;
  readonly clones: string[];
  readonly bare: string;

  private constructor(
    readonly net: TestNet,
    readonly work: string,
  ) {
    this.bare = net.bareRepo('repo.git');
    this.clones = net.clientNs.map((_, i) => path.join(work, `clone${i}`));
  }

  static async create(o: TeamOptions): Promise<SyncTeam> {
    const net = TestNet.create(o.clones);
    const team = new SyncTeam(net, tempWorkspace('syncteam'));
    try {
      team.seed(o);
      team.daemon = await net.startDaemon();
      await Promise.all(team.clones.map((dir, i) => net.git(i, ['clone', '--quiet', net.url('repo.git'), dir])));
      // Every clone has the committed config with sync on (a clone without a checkout would silently test nothing).
      // Each teammate agrees to the committed sync section once (docs/contract.md §13), as a user would.
      for (let i = 0; i < o.clones; i++) {
        const status = await team.ok(i, ['sync', '--status']);
        assert.equal((status.data as { enabled?: boolean }).enabled, true, `clone ${i}: sync is on: ${JSON.stringify(status)}`);
        await team.ok(i, ['sync', '--enable']);
      }
    } catch (e) {
      team.destroy();
      throw e;
    }
    return team;
  }

  /** The workspace as a team commits it: `agentsync init`, humans, sync on; pushed to the bare repository's main. */
  private seed(o: TeamOptions): void {
    const seed = path.join(this.work, 'seed');
    const sh = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: seed });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    };
    fs.mkdirSync(seed);
    sh('git', ['init', '--quiet', '-b', 'main']);
    sh(process.execPath, [CLI, '--dir', seed, 'init']);
    const configFile = path.join(seed, '.agentsync.json');
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    config.humans = o.humans ?? [];
    config.sync = { remote: 'origin', ref: SYNC_REF, offline: o.offline ?? 'refuse', interval_s: 30 };
    fs.writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
    sh('git', ['add', '-A']);
    sh('git', ['-c', 'user.name=team seed', '-c', 'user.email=seed@test.invalid', 'commit', '--quiet', '-m', 'agentsync with sync on']);
    sh('git', ['push', '--quiet', this.bare, 'HEAD:refs/heads/main']);
  }

  ns(i: number): string {
    return this.net.clientNs[i];
  }

  /** `agentsync --dir <clone i> --json ...args` on host i, its one JSON answer parsed. */
  async json(i: number, args: string[], input?: string): Promise<{ run: Run; answer: Answer }> {
    const run = await this.net.cli(i, this.clones[i], ['--json', ...args], { input, timeoutMs: 120_000 });
    return { run, answer: parseAnswer(run, `clone ${i}: agentsync ${args.join(' ')}`) };
  }

  /** Like json() but fails the test unless the answer is ok. */
  async ok(i: number, args: string[], input?: string): Promise<Answer> {
    const { run, answer } = await this.json(i, args, input);
    assert.equal(answer.ok, true, `clone ${i}: agentsync ${args.join(' ')} answered ${run.stdout} ${run.stderr}`);
    return answer;
  }

  /** A barrier child on host i (test/process/fixtures/barrierCli.js): loads the CLI, waits for `startFile`, runs. */
  barrierChild(i: number, startFile: string, times: number, args: string[]): Child {
    const [cmd, argv] = this.net.argv(this.ns(i), process.execPath, [
      BARRIER,
      startFile,
      String(times),
      '--',
      '--dir',
      this.clones[i],
      '--json',
      ...args,
    ]);
    return startChild(cmd, argv, { command: true });
  }

  /** The clone's `.agentsync/handoffs.json`, schema-checked. */
  store(i: number): Handoff[] {
    return parseStore(fs.readFileSync(this.storeFile(i), 'utf8'), `clone ${i}`);
  }

  storeFile(i: number): string {
    return path.join(this.clones[i], '.agentsync/handoffs.json');
  }

  /** The remote's shared state: `handoffs.json` in the tree of the ref's commit (read from the bare repository). */
  remoteStoreText(): string {
    const r = spawnSync('git', ['--git-dir', this.bare, 'show', `${SYNC_REF}:handoffs.json`], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`the remote has no ${SYNC_REF}:handoffs.json: ${r.stderr}`);
    return r.stdout;
  }

  remoteStore(): Handoff[] {
    return parseStore(this.remoteStoreText(), 'the remote');
  }

  remoteCommit(): string {
    return spawnSync('git', ['--git-dir', this.bare, 'rev-parse', '--verify', '--quiet', SYNC_REF], { encoding: 'utf8' }).stdout.trim();
  }

  /** `agentsync sync` on every clone (one after another), then every clone's store must be the remote's, byte for byte. */
  async syncAllAndCompare(): Promise<Handoff[]> {
    for (let i = 0; i < this.clones.length; i++) await this.ok(i, ['sync']);
    const remote = this.remoteStoreText();
    for (let i = 0; i < this.clones.length; i++) {
      assert.equal(
        fs.readFileSync(this.storeFile(i), 'utf8'),
        remote,
        `clone ${i}'s handoffs.json is the shared state after agentsync sync`,
      );
    }
    return parseStore(remote, 'the remote');
  }

  /** What a failed assertion should show about the remote: its ref, lock files left in the bare repository, the daemon's last lines. */
  remoteDiagnosis(): string {
    const locks: string[] = [];
    const walk = (dir: string) => {
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // git removed it meanwhile (a push's temporary object folder)
      }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.lock')) locks.push(path.relative(this.bare, p));
      }
    };
    walk(this.bare);
    const ref = this.remoteCommit() || '(none)';
    return `remote ${SYNC_REF} = ${ref}; lock files in the bare repository: ${locks.join(', ') || 'none'}; daemon log tail: ${this.daemon.log().slice(-1500)}`;
  }

  destroy(): void {
    this.net.destroy();
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}

export interface Answer {
  ok: boolean;
  action?: string;
  request_id?: string;
  reason?: string;
  message?: string;
  claimedBy?: string;
  data?: Record<string, unknown> & { sync?: SyncInfo; handoff?: Handoff };
  sync?: SyncInfo;
  [k: string]: unknown;
}

export interface SyncInfo {
  confirmed?: boolean;
  remote?: string;
  ref?: string;
  commit?: string;
  pending?: boolean;
  reason?: string;
}

/** The one JSON object a `--json` run prints (contract §8), or a failure naming what it printed instead. */
export function parseAnswer(run: { stdout: string; stderr: string; code: number | null }, what: string): Answer {
  const lines = run.stdout.split('\n').filter((l) => l.startsWith('{'));
  assert.equal(lines.length, 1, `${what} prints one JSON answer (exit ${run.code}); stdout: ${run.stdout} stderr: ${run.stderr}`);
  return JSON.parse(lines[0]) as Answer;
}

export function parseStore(text: string, what: string): Handoff[] {
  const parsed = handoffsFileSchema.safeParse(JSON.parse(text));
  assert.ok(parsed.success, `${what}: handoffs.json must match the schema: ${!parsed.success && parsed.error.message}`);
  return parsed.data.handoffs;
}

/** Releases `children` (already started, each printing READY) together through `startFile`; waits for all exits. */
export async function releaseTogether(children: Child[], startFile: string): Promise<void> {
  await Promise.all(children.map((c, i) => c.waitForLine((l) => l === 'READY', 60_000, `child ${i} READY`)));
  fs.writeFileSync(startFile, 'go');
  await Promise.all(children.map((c) => c.exited));
}
