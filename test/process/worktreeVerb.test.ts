// `agentsync worktree add | list | remove` (docs/contract.md §14 item 5), the CLI as a process against real
// `git worktree`s: a handoff owns a worktree on its own branch, bound on the record; `list` shows each worktree's
// branch, handoff and holder and flags a checkout from before AgentSync; `remove` refuses `worktree_held` while the
// handoff is held. A bad path or a HEAD without AgentSync is refused with nothing created.
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

function json(cwd: string, ...args: string[]): { ok: boolean; reason?: string; data: Record<string, unknown> } {
  const r = cli(cwd, '--json', ...args);
  return JSON.parse(r.out) as { ok: boolean; reason?: string; data: Record<string, unknown> };
}

interface Record_ {
  handoff_id: string;
  rev: number;
  worktree?: { name: string; branch: string; commit: string };
}

function record(repo: string, id: string): Record_ {
  return json(repo, 'show', id).data.handoff as Record_;
}

function create(repo: string, to: string): string {
  return cli(repo, 'create', '--from', 'human', '--to', to, '--summary', `work for ${to}`, '--quiet').out.trim();
}

/** A clone with a commit from before AgentSync (`pre`), then AgentSync committed on main. */
function clone(): { repo: string; outside: string; pre: string } {
  const repo = path.join(tempWorkspace('wt-verb'), 'repo');
  fs.mkdirSync(repo);
  gitOk(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'before AgentSync');
  const pre = gitOk(repo, 'rev-parse', 'HEAD').trim();
  assert.equal(cli(repo, 'init').code, 0);
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync');
  return { repo: fs.realpathSync(repo), outside: fs.realpathSync(path.dirname(repo)), pre };
}

const worktreeList = (repo: string): string => gitOk(repo, 'worktree', 'list', '--porcelain');
const branches = (repo: string): string => gitOk(repo, 'branch', '--list');

describe('agentsync worktree add | list | remove (process, real git worktrees)', function () {
  this.timeout(120_000);

  it('add makes the worktree on a new branch from HEAD, binds it on the handoff, and prints the command that starts the agent', () => {
    const { repo, outside } = clone();
    const id = create(repo, 'claude');
    const head = gitOk(repo, 'rev-parse', 'HEAD').trim();
    const r = cli(repo, 'worktree', 'add', '../claude-wt', '--handoff', id);
    assert.equal(r.code, 0, r.out + r.err);
    const where = path.join(outside, 'claude-wt');
    assert.ok(r.out.includes(`cd ${where} && claude`), r.out);
    assert.match(worktreeList(repo), new RegExp(`worktree ${where}\\nHEAD ${head}\\nbranch refs/heads/agentsync/${id}`));
    assert.deepEqual(record(repo, id).worktree, { name: 'claude-wt', branch: `agentsync/${id}`, commit: head });
    assert.ok(fs.existsSync(path.join(where, '.agentsync.json')));
    // The first binding writes a field AgentSync 0.4.0 cannot read: the store becomes version 2, and the user is told.
    assert.match(r.err, /store version 2: this handoff records its worktree/);
    assert.match(fs.readFileSync(path.join(repo, '.agentsync/handoffs.json'), 'utf8'), /^\{\n {2}"version": 2,/);
    // The vendor's own command when --agent names one AgentSync knows, a plain line otherwise.
    const other = create(repo, 'codex');
    assert.match(cli(repo, 'worktree', 'add', '../codex-wt', '--handoff', other).out, /&& codex\n/);
    const third = create(repo, 'claude');
    const plain = cli(repo, 'worktree', 'add', '../bob-wt', '--handoff', third, '--agent', 'bob');
    assert.equal(plain.code, 0, plain.err);
    assert.match(plain.out, /then start bob there/);
  });

  it('list shows each worktree with its branch, handoff and holder, and flags a checkout from before AgentSync', () => {
    const { repo, outside, pre } = clone();
    const id = create(repo, 'claude');
    assert.equal(cli(repo, 'worktree', 'add', '../claude-wt', '--handoff', id).code, 0);
    assert.equal(cli(path.join(outside, 'claude-wt'), 'claim', id, '--agent', 'claude').code, 0);
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'old-work', path.join(outside, 'old'), pre);
    const text = cli(repo, 'worktree', 'list');
    assert.equal(text.code, 0, text.err);
    const line = text.out.split('\n').find((l) => l.startsWith('claude-wt '));
    assert.ok(line, text.out);
    assert.ok(line.includes(`agentsync/${id}`) && line.includes(`handoff ${id} (in_progress)`), line);
    assert.match(line, /held by Claude \(worktree claude-wt, branch agentsync\/HO-\d{8}-\d{3}\), lease until /);
    assert.match(text.out, /^old .* old-work {2}no handoff\n {4}no \.agentsync\.json in this checkout/m);
    const rows = json(repo, 'worktree', 'list').data.worktrees as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((w) => [w.name, w.branch, w.handoff, w.held, w.agentsync]),
      [
        ['main', 'main', null, false, true],
        ['claude-wt', `agentsync/${id}`, id, true, true],
        ['old', 'old-work', null, false, false],
      ],
    );
  });

  it('remove is refused worktree_held while the handoff is held; --force removes it and clears the binding', () => {
    const { repo, outside } = clone();
    const id = create(repo, 'claude');
    const where = path.join(outside, 'claude-wt');
    assert.equal(cli(repo, 'worktree', 'add', where, '--handoff', id).code, 0);
    assert.equal(cli(where, 'claim', id, '--agent', 'claude').code, 0);
    const rev = record(repo, id).rev;
    const held = json(repo, 'worktree', 'remove', where);
    assert.equal(held.ok, false);
    assert.equal(held.reason, 'worktree_held');
    assert.ok(fs.existsSync(where), 'the held worktree is still there');
    assert.equal(record(repo, id).rev, rev, 'nothing written');
    const forced = cli(repo, 'worktree', 'remove', where, '--force');
    assert.equal(forced.code, 0, forced.err);
    assert.equal(fs.existsSync(where), false);
    assert.equal(worktreeList(repo).includes(where), false);
    assert.equal(record(repo, id).worktree, undefined);
    assert.match(branches(repo), new RegExp(`agentsync/${id}`), 'the branch (the work) is kept');
  });

  it('remove is allowed without --force once the holder released the handoff', () => {
    const { repo, outside } = clone();
    const id = create(repo, 'claude');
    const where = path.join(outside, 'claude-wt');
    assert.equal(cli(repo, 'worktree', 'add', where, '--handoff', id).code, 0);
    assert.equal(cli(where, 'claim', id, '--agent', 'claude').code, 0);
    assert.equal(json(repo, 'worktree', 'remove', where).reason, 'worktree_held');
    assert.equal(cli(where, 'release', id, '--agent', 'claude').code, 0);
    const r = cli(repo, 'worktree', 'remove', where);
    assert.equal(r.code, 0, r.err);
    assert.equal(fs.existsSync(where), false);
    assert.equal(record(repo, id).worktree, undefined);
  });

  it('a bad path or a HEAD without AgentSync is refused cleanly, with nothing created', () => {
    const { repo, outside, pre } = clone();
    const id = create(repo, 'claude');
    const rev = record(repo, id).rev;
    const before = { list: worktreeList(repo), branches: branches(repo) };
    const busy = path.join(outside, 'busy');
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, 'keep.txt'), 'mine\n');
    const nonEmpty = json(repo, 'worktree', 'add', busy, '--handoff', id);
    assert.equal(nonEmpty.ok, false);
    assert.equal(nonEmpty.reason, 'invalid_request');
    assert.deepEqual(fs.readdirSync(busy), ['keep.txt']);
    const inGit = cli(repo, 'worktree', 'add', '.git/wt', '--handoff', id);
    assert.equal(inGit.code, 1);
    assert.match(inGit.err, /inside the clone's git folder/);
    assert.equal(fs.existsSync(path.join(repo, '.git/wt')), false);
    assert.equal(record(repo, id).rev, rev, 'the record is unchanged');
    assert.deepEqual({ list: worktreeList(repo), branches: branches(repo) }, before, 'no worktree, no branch');
    // From a worktree on a commit from before AgentSync: its HEAD has no .agentsync.json, so no worktree is made from it.
    const old = path.join(outside, 'old');
    gitOk(repo, 'worktree', 'add', '-q', '--detach', old, pre);
    const withOld = worktreeList(repo);
    const fromOld = cli(old, 'worktree', 'add', '../fresh', '--handoff', id);
    assert.equal(fromOld.code, 1, fromOld.out);
    assert.match(fromOld.err, /invalid_request: HEAD of .* has no \.agentsync\.json/);
    assert.equal(fs.existsSync(path.join(outside, 'fresh')), false);
    assert.equal(record(repo, id).rev, rev);
    assert.equal(worktreeList(repo), withOld);
    assert.equal(branches(repo), before.branches);
  });
});
