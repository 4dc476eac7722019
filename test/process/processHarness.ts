// Helpers the multi-process tests share: start a fixture child, follow its stdout line by line, wait for lines
// and for its exit. Real processes only; nothing here fakes the store.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkspaceLayout } from '../../src/core/workspace/workspaceLayout';
import { VENDORS } from '../../src/core/hooks/vendors';

/** The checkout root (tests compile to out/test/process/, fixtures stay in test/process/fixtures/). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const CLI = path.join(REPO_ROOT, 'bin/agentsync.js');
export const FIXTURES = path.join(REPO_ROOT, 'test/process/fixtures');

export function tempWorkspace(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `agentsync-${prefix}-`));
}

/** A new temporary folder with `agentsync init` run in it: the start of most CLI tests. */
export function initWorkspace(prefix: string): string {
  const ws = tempWorkspace(prefix);
  runCliSync(['--dir', ws, 'init']);
  return ws;
}

/** What a finished `agentsync` process left: its exit code and output. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/agentsync.js --dir <ws> ...` to completion, whatever its exit code; `input` is its standard input. */
export function runCliIn(ws: string, args: string[], input?: string): CliRun {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, ...args], { encoding: 'utf8', input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `node bin/agentsync.js ...` to completion; throws with its output if it exits non-zero. */
export function runCliSync(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`agentsync ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

export interface Child {
  proc: ChildProcess;
  lines: string[];
  stderr: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first line (already seen or still to come) for which `match` is true. */
  waitForLine(match: (line: string) => boolean, timeoutMs: number, what: string): Promise<string>;
}

/** Runs `node script args` (or, with `command: true`, the program `script` itself) and follows its stdout. */
export function startChild(script: string, args: string[], options: { ipc?: boolean; command?: boolean } = {}): Child {
  const proc = spawn(options.command ? script : process.execPath, options.command ? args : [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
  });
  const lines: string[] = [];
  const waiters: { match: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let partial = '';
  const child: Child = {
    proc,
    lines,
    stderr: '',
    exited: new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal }))),
    waitForLine(match, timeoutMs, what) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; stderr: ${child.stderr}`)),
          timeoutMs,
        );
        waiters.push({ match, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      });
    },
  };
  proc.stdout!.setEncoding('utf8');
  proc.stdout!.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (waiters[i].match(line)) waiters.splice(i, 1)[0].resolve(line);
      }
    }
  });
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (chunk: string) => (child.stderr += chunk));
  return child;
}

/** Lines that are JSON objects (the CLI's --json output), parsed. */
export function jsonLines(lines: readonly string[]): Record<string, unknown>[] {
  return lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Every line of the workspace's committed audit log (all month files), parsed; none when there is no audit yet. */
export function auditLines(layout: WorkspaceLayout): Record<string, unknown>[] {
  if (!fs.existsSync(layout.auditDir)) return [];
  return fs
    .readdirSync(layout.auditDir)
    .filter((n) => n.endsWith('.jsonl'))
    .flatMap((n) => fs.readFileSync(path.join(layout.auditDir, n), 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The agents of the delegation examples (alice, audit, tester, bob, scout) configured, plus a named human reviewer. */
export function configureAgents(ws: string): void {
  const file = path.join(ws, '.agentsync.json');
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  config.agentCapabilities = {
    alice: ['code_patch'],
    audit: ['pr_review'],
    tester: ['test_authoring'],
    bob: ['code_patch'],
    scout: ['research'],
  };
  config.humans = ['dana'];
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
}

/** git isolated from the machine's own config; `node` on PATH is the one running the tests (merge drivers run `node`). */
export const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
};

/** GIT_ENV without any agent's session variable: the CLI runs as no agent session, as a person at a terminal would. */
export const NO_SESSION_ENV: NodeJS.ProcessEnv = withoutSession({ ...GIT_ENV });

/**
 * `env` without any variable that names an agent or its session: every vendor's session variables (from the vendor
 * record, so a new vendor's are cleared too), CODEX_SESSION_ID (Codex's twin of its thread id), the agent override, and
 * Copilot CLI's marks (claude.ts: a Claude pack run under COPILOT_CLI is Copilot's).
 */
export function withoutSession(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const names = [...Object.values(VENDORS).flatMap((v) => v.sessionEnv), 'CODEX_SESSION_ID', 'AGENTSYNC_AGENT', 'COPILOT_CLI'];
  for (const k of [...names, 'COPILOT_HOOK_DIR']) delete env[k];
  return env;
}

/** `agentsync ...` run in the folder `cwd` (no --dir: the CLI finds the workspace from there), with NO_SESSION_ENV. */
export function cliAt(cwd: string, args: string[], input?: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: NO_SESSION_ENV, input });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** cliAt that must exit 0; its stdout. */
export function cliAtOk(cwd: string, ...args: string[]): string {
  const r = cliAt(cwd, args);
  assert.equal(r.code, 0, `agentsync ${args.join(' ')}: ${r.out}${r.err}`);
  return r.out;
}

export function git(dir: string, ...args: string[]): { status: number | null; out: string } {
  const r = spawnSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

export function gitOk(dir: string, ...args: string[]): string {
  const r = git(dir, ...args);
  assert.equal(r.status, 0, `git ${args.join(' ')} failed: ${r.out}`);
  return r.out;
}

/**
 * Forgets the clone's live record (its home, .git/agentsync/@/; docs/contract.md §14), so the next command seeds it from
 * the branch checked out now: what another clone working on that branch would hold. One clone no longer keeps a
 * record per branch, so tests that make two branches' records diverge in one folder stand for two clones with this.
 */
export function asAnotherClone(dir: string): void {
  // The home of the workspace at the repository's top only: .git/agentsync/ also holds the merge drivers' launcher.
  fs.rmSync(path.join(dir, '.git', 'agentsync', '@'), { recursive: true, force: true });
}

/** `git checkout <args>` in `dir`, then asAnotherClone: the branch's work is another clone's. */
export function checkoutAsAnotherClone(dir: string, ...args: string[]): void {
  gitOk(dir, 'checkout', ...args);
  asAnotherClone(dir);
}
