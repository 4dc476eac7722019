// Worktrees git can no longer place, and a redirected .agentsync (docs/contract.md §14, "Finding it starts no
// process"): a linked worktree whose main checkout was deleted, whose admin folder git pruned, or whose admin folder
// lost its `commondir` gets a clear refusal naming the path and what to run, exit 1, and nothing is written anywhere
// (no second home is started). A symlinked .agentsync in a linked worktree is refused for reads too, and a watcher in
// the main worktree writes nothing through it. A worktree on a branch from before AgentSync is flagged by `worktree
// list` and in the session briefing, while it reads and writes the clone's record. Real git worktrees, the CLI as a process.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, NO_SESSION_ENV, gitOk, tempWorkspace } from './processHarness';

const ENV = NO_SESSION_ENV;

function cli(cwd: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: ENV });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Every file under `dir` with its bytes, to show that nothing was written there. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(path.relative(dir, p), fs.readFileSync(p, 'utf8'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** A main checkout with AgentSync and one handoff committed, and the linked worktree `wt` on its own branch. */
function clone(): { main: string; wt: string; id: string } {
  const parent = fs.realpathSync(tempWorkspace('wt-bad'));
  const main = path.join(parent, 'main');
  fs.mkdirSync(main);
  gitOk(main, 'init', '-q', '-b', 'main');
  assert.equal(cli(main, 'init').code, 0);
  const id = cli(main, 'create', '--from', 'human', '--to', 'claude', '--summary', 'fix it', '--quiet').out.trim();
  gitOk(main, 'add', '-A');
  gitOk(main, 'commit', '-q', '-m', 'agentsync');
  const wt = path.join(parent, 'wt');
  gitOk(main, 'worktree', 'add', '-q', '-b', 'wt', wt);
  assert.match(cli(wt, 'list').out, new RegExp(id));
  return { main, wt, id };
}

/** A read and a write in `wt` are refused naming `names` and `advice`, exit 1, and change no file under `dirs`. */
function refusedUntouched(wt: string, id: string, dirs: string[], names: RegExp, advice: RegExp): void {
  const before = dirs.map(snapshot);
  for (const args of [['list'], ['show', id], ['claim', id, '--agent', 'claude'], ['--json', 'list']]) {
    const r = cli(wt, ...args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.out}${r.err}`);
    const said = args[0] === '--json' ? (JSON.parse(r.out) as { reason: string; message: string }).message : r.err;
    if (args[0] === '--json') assert.equal((JSON.parse(r.out) as { reason: string }).reason, 'not_a_workspace');
    assert.match(said, names, `${args.join(' ')} names the path`);
    assert.match(said, advice, `${args.join(' ')} says what to do`);
    assert.match(said, /nothing was changed/);
  }
  dirs.forEach((d, i) => assert.deepEqual(snapshot(d), before[i], `nothing written under ${d}`));
}

describe('worktrees git can no longer place, and a redirected .agentsync (process, real git worktrees)', function () {
  this.timeout(180_000);

  it('the main checkout deleted: refused with the dangling path and `git worktree repair`, nothing written', () => {
    const { main, wt, id } = clone();
    fs.rmSync(main, { recursive: true, force: true });
    refusedUntouched(wt, id, [wt], new RegExp(`${main}/\\.git/worktrees/wt, which does not exist`), /git worktree repair/);
    assert.ok(!fs.existsSync(main), 'nothing re-created the deleted checkout');
  });

  it('the worktree moved by hand and then pruned by `git worktree prune`: refused, nothing written', () => {
    const { main, wt, id } = clone();
    const moved = `${wt}-moved`;
    fs.renameSync(wt, moved);
    gitOk(main, 'worktree', 'prune');
    assert.ok(!fs.existsSync(path.join(main, '.git', 'worktrees', 'wt')), 'git pruned the admin folder');
    refusedUntouched(moved, id, [moved, path.join(main, '.git')], /which does not exist/, /git worktree (repair|prune)/);
  });

  it('the admin folder lost its commondir: refused naming it, and no second home is started', () => {
    const { main, wt, id } = clone();
    const admin = path.join(main, '.git', 'worktrees', 'wt');
    fs.rmSync(path.join(admin, 'commondir'));
    refusedUntouched(wt, id, [wt, path.join(main, '.git')], new RegExp(`${admin} has no commondir file`), /git worktree prune/);
    assert.ok(!fs.existsSync(path.join(admin, 'agentsync')), 'no home inside the admin folder');
  });

  it('a symlinked .agentsync in a linked worktree: a read is refused store_unsafe; a watcher writes nothing through it', () => {
    const { main, wt, id } = clone();
    const elsewhere = fs.realpathSync(tempWorkspace('wt-bad-elsewhere'));
    fs.mkdirSync(path.join(elsewhere, 'requests'));
    fs.writeFileSync(
      path.join(elsewhere, 'requests', 'claim.json'),
      JSON.stringify({ action: 'claimHandoff', request_id: 'through-link', handoffId: id, agent: 'claude' }),
    );
    fs.rmSync(path.join(wt, '.agentsync'), { recursive: true, force: true });
    fs.symlinkSync(elsewhere, path.join(wt, '.agentsync'));
    const before = snapshot(elsewhere);
    const r = cli(wt, '--json', 'list');
    assert.equal(r.code, 1);
    const answer = JSON.parse(r.out) as { reason: string; message: string };
    assert.equal(answer.reason, 'store_unsafe', r.out);
    assert.match(answer.message, /symlink/);
    assert.equal(cli(main, 'watch', '--once').code !== null, true);
    assert.deepEqual(snapshot(elsewhere), before, 'nothing written through the symlink');
    const record = JSON.parse(cli(main, '--json', 'show', id).out) as { data: { handoff: { status: string } } };
    assert.equal(record.data.handoff.status, 'queued', 'the request behind the symlink was not acted on');
  });

  it("a worktree on a branch from before AgentSync: flagged in `worktree list` and the briefing; it uses the clone's record", () => {
    const { main, id } = clone();
    const old = path.join(path.dirname(main), 'old');
    gitOk(main, 'checkout', '-q', '--orphan', 'before');
    gitOk(main, 'rm', '-rq', '--cached', '.');
    gitOk(main, 'commit', '-q', '--allow-empty', '-m', 'before AgentSync');
    gitOk(main, 'checkout', '-q', '-f', 'main');
    gitOk(main, 'worktree', 'add', '-q', old, 'before');
    assert.ok(!fs.existsSync(path.join(old, '.agentsync.json')));
    const listed = cli(main, 'worktree', 'list');
    const line = listed.out.split('\n').findIndex((l) => l.startsWith('old '));
    assert.ok(line >= 0, listed.out);
    assert.match(listed.out.split('\n')[line + 1], /no \.agentsync\.json in this checkout/);
    const started = spawnSync(process.execPath, [CLI, 'request', '-'], {
      cwd: old,
      encoding: 'utf8',
      env: ENV,
      input: JSON.stringify({ action: 'startSession', agent: 'claude', goal: 'look around' }),
    });
    const answer = JSON.parse(started.stdout) as {
      ok: boolean;
      data: { briefing: { claimable: { handoff_id: string }[]; checkout_without_agentsync?: string } };
    };
    assert.equal(answer.ok, true, started.stdout + started.stderr);
    assert.match(
      answer.data.briefing.checkout_without_agentsync ?? '',
      new RegExp(`${old} \\(old, on before\\) is on a branch from before AgentSync`),
    );
    assert.deepEqual(
      answer.data.briefing.claimable.map((h) => h.handoff_id),
      [id],
      "the briefing is the clone's record",
    );
    const hook = spawnSync(process.execPath, [CLI, 'hook', 'session-start', '--agent', 'claude', '--format', 'claude'], {
      cwd: old,
      encoding: 'utf8',
      env: ENV,
      input: JSON.stringify({ cwd: old, hook_event_name: 'SessionStart' }),
    });
    assert.match(hook.stdout, /on a branch from before AgentSync/, hook.stdout + hook.stderr);
    assert.equal(cli(old, 'claim', id, '--agent', 'claude').code, 0);
    assert.match(cli(main, 'show', id).out, /in_progress/);
    assert.equal(gitOk(old, 'status', '--porcelain', '--untracked-files=all'), '', 'nothing left in the old checkout');
  });
});
