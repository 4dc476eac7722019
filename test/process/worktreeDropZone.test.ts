// The drop zone where the agent is (docs/contract.md §14 item 3), with real `git worktree`s and `agentsync watch` as a
// real process run in the main worktree: a request written into a linked worktree's .agentsync/requests/ is answered
// there, once, as coming from that worktree; a worktree added while the watcher runs is answered too; the answers
// leave no untracked file in the worktree (the runtime paths are in the clone's info/exclude).
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, NO_SESSION_ENV, gitOk, runCliSync, tempWorkspace } from './processHarness';

function env(): NodeJS.ProcessEnv {
  return NO_SESSION_ENV;
}

function request(dir: string, body: object): { ok: boolean; data: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [CLI, 'request', '-'], { cwd: dir, input: JSON.stringify(body), encoding: 'utf8', env: env() });
  return JSON.parse(r.stdout) as { ok: boolean; data: Record<string, unknown> };
}

/** A request file as a writer should put it: written beside, then renamed into requests/. */
function drop(worktree: string, name: string, body: object): void {
  const dir = path.join(worktree, '.agentsync', 'requests');
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(worktree, '.agentsync', `.${name}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(body));
  fs.renameSync(tmp, path.join(dir, name));
}

function response(worktree: string, id: string): Record<string, unknown> | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(worktree, '.agentsync', 'responses', `${id}.json`), 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function clone(): { repo: string; id: string } {
  const repo = tempWorkspace('wt-dropzone');
  gitOk(repo, 'init', '-q', '-b', 'main');
  runCliSync(['--dir', repo, 'init']);
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync init');
  const created = request(repo, {
    action: 'createHandoff',
    handoff: { from_agent: 'human', to_agents: ['claude'], owner_mode: 'single', summary: 'Fix it', files: ['src/app.ts'] },
  });
  return { repo, id: (created.data.handoff as { handoff_id: string }).handoff_id };
}

describe('the drop zone of every worktree, answered by a watcher in the main worktree (process, real git worktrees)', function () {
  this.timeout(120_000);

  it('a request written in a linked worktree is answered there by `watch --once` in the main worktree, from that worktree', () => {
    const { repo, id } = clone();
    const wt = path.join(tempWorkspace('wt-dropzone-linked'), 'agent-claude');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'claude-work', wt);
    drop(wt, 'claim.json', { action: 'claimHandoff', request_id: 'claim-1', handoffId: id, agent: 'claude' });
    const r = spawnSync(process.execPath, [CLI, 'watch', '--once', '--json'], { cwd: repo, encoding: 'utf8', env: env() });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const answer = response(wt, 'claim-1');
    assert.ok(answer, `no answer in ${wt}: ${r.stdout}${r.stderr}`);
    assert.equal(answer.ok, true, JSON.stringify(answer));
    const held = (answer.data as { handoff: { claimed_session?: unknown } }).handoff.claimed_session;
    assert.deepEqual(held, { id: null, worktree: 'agent-claude', branch: 'claude-work' });
    assert.equal(fs.existsSync(path.join(repo, '.agentsync', 'responses', 'claim-1.json')), false, 'answered in the main worktree');
    // Once: a second watcher finds nothing left to answer.
    const again = spawnSync(process.execPath, [CLI, 'watch', '--once', '--json'], { cwd: wt, encoding: 'utf8', env: env() });
    assert.equal((JSON.parse(again.stdout) as { data: { answered: number } }).data.answered, 0, again.stdout);
    // The answer leaves the linked worktree clean whatever its branch ignores.
    assert.equal(gitOk(wt, 'status', '--porcelain', '--untracked-files=all').trim(), '');
  });

  it('a worktree added while `agentsync watch` runs in the main worktree is answered too', async () => {
    const { repo, id } = clone();
    const watcher = spawn(process.execPath, [CLI, 'watch', '--interval-ms', '200'], { cwd: repo, env: env(), stdio: 'pipe' });
    let out = '';
    watcher.stdout.on('data', (b: Buffer) => (out += b.toString()));
    watcher.stderr.on('data', (b: Buffer) => (out += b.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!/watching/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const wt = path.join(tempWorkspace('wt-dropzone-late'), 'late');
      gitOk(repo, 'worktree', 'add', '-q', '-b', 'late-work', wt);
      drop(wt, 'claim.json', { action: 'claimHandoff', request_id: 'late-1', handoffId: id, agent: 'claude' });
      let answer: Record<string, unknown> | null = null;
      while (!(answer = response(wt, 'late-1')) && Date.now() < deadline + 30_000) await new Promise((r) => setTimeout(r, 100));
      assert.ok(answer, `no answer in the worktree added while watching: ${out}`);
      assert.equal(answer.ok, true, JSON.stringify(answer));
    } finally {
      watcher.kill('SIGTERM');
      await new Promise((r) => watcher.once('exit', r));
    }
  });

  it('a linked worktree present when `agentsync watch` starts is watched: its request is answered long before the rescan', async () => {
    const { repo, id } = clone();
    const wt = path.join(tempWorkspace('wt-dropzone-watched'), 'agent-claude');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'claude-work', wt);
    fs.mkdirSync(path.join(wt, '.agentsync', 'requests'), { recursive: true });
    // A rescan every 10 minutes: only a watch of the worktree's requests/ answers within this test.
    const watcher = spawn(process.execPath, [CLI, 'watch', '--interval-ms', '600000'], { cwd: repo, env: env(), stdio: 'pipe' });
    let out = '';
    watcher.stdout.on('data', (b: Buffer) => (out += b.toString()));
    watcher.stderr.on('data', (b: Buffer) => (out += b.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!/watching/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 500)); // the first scan is done: what comes now only a watch sees
      drop(wt, 'claim.json', { action: 'claimHandoff', request_id: 'watched-1', handoffId: id, agent: 'claude' });
      let answer: Record<string, unknown> | null = null;
      while (!(answer = response(wt, 'watched-1')) && Date.now() < deadline + 30_000) await new Promise((r) => setTimeout(r, 100));
      assert.ok(answer, `no answer in the linked worktree: ${out}`);
      assert.equal(answer.ok, true, JSON.stringify(answer));
    } finally {
      watcher.kill('SIGTERM');
      await new Promise((r) => watcher.once('exit', r));
    }
  });

  it("a drop-zone request naming no session is taken as the agent's only live session in that worktree", () => {
    const { repo, id } = clone();
    const wt = path.join(tempWorkspace('wt-dropzone-session'), 'agent-claude');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'claude-work', wt);
    // Claude Code's session starts in the linked worktree (its hook runs startSession with its session id).
    const started = spawnSync(process.execPath, [CLI, 'request', '-'], {
      cwd: wt,
      input: JSON.stringify({ action: 'startSession', agent: 'claude' }),
      encoding: 'utf8',
      env: { ...env(), CLAUDE_CODE_SESSION_ID: 'cc-session-1' },
    });
    assert.equal((JSON.parse(started.stdout) as { ok: boolean }).ok, true, started.stdout + started.stderr);
    drop(wt, 'claim.json', { action: 'claimHandoff', request_id: 'claim-s', handoffId: id, agent: 'claude' });
    const r = spawnSync(process.execPath, [CLI, 'watch', '--once', '--json'], { cwd: repo, encoding: 'utf8', env: env() });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const answer = response(wt, 'claim-s');
    assert.ok(answer, r.stdout + r.stderr);
    const held = (answer.data as { handoff: { claimed_session?: unknown } }).handoff.claimed_session;
    assert.deepEqual(held, { id: 'cc-session-1', worktree: 'agent-claude', branch: 'claude-work' });
  });
});
