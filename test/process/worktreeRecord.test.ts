// One record per clone across its git worktrees (docs/contract.md §14): real `git worktree add`, a real bare clone,
// the real CLI as separate processes started in each worktree (no --dir: each finds its workspace from where it runs).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, FIXTURES, GIT_ENV, gitOk, jsonLines, startChild, tempWorkspace, type Child } from './processHarness';

const BARRIER = path.join(FIXTURES, 'barrierCli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `agentsync <args>` run with `cwd` as its current folder (how an agent in a worktree runs it). */
function cli(cwd: string, ...args: string[]): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: GIT_ENV });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function cliJson(cwd: string, ...args: string[]): Record<string, unknown> & { ok: boolean; data?: Record<string, unknown> } {
  const r = cli(cwd, '--json', ...args);
  const lines = jsonLines(r.stdout.split('\n').filter(Boolean));
  assert.equal(lines.length, 1, `one JSON answer from ${args.join(' ')} in ${cwd}: ${r.stdout} ${r.stderr}`);
  return lines[0] as Record<string, unknown> & { ok: boolean; data?: Record<string, unknown> };
}

function listed(cwd: string): { handoff_id: string; uid: string; status: string; claimed_by?: string | null; rev: number }[] {
  const r = cliJson(cwd, 'list');
  assert.equal(r.ok, true, JSON.stringify(r));
  return (r.data as { handoffs: { handoff_id: string; uid: string; status: string; claimed_by?: string | null; rev: number }[] }).handoffs;
}

function create(cwd: string, summary: string): string {
  const r = cliJson(cwd, 'create', '--from', 'claude', '--to', 'codex', '--summary', summary);
  assert.equal(r.ok, true, JSON.stringify(r));
  return (r.data as { handoff: { handoff_id: string } }).handoff.handoff_id;
}

function status(cwd: string): string {
  return gitOk(cwd, 'status', '--porcelain', '--untracked-files=all').trim();
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

/**
 * A main checkout initialized and committed with `handoffs` handoffs, every name a human (so anyone may claim and only
 * the race decides), and `worktrees` linked worktrees on their own branches beside it.
 */
function clone(handoffs: number, worktrees: string[], agents: string[] = []): { main: string; ids: string[]; wt: Record<string, string> } {
  const parent = fs.realpathSync(tempWorkspace('wtrec'));
  const main = path.join(parent, 'main');
  fs.mkdirSync(main);
  gitOk(main, 'init', '-q', '-b', 'main');
  assert.equal(cli(main, 'init').code, 0);
  const configFile = path.join(main, '.agentsync.json');
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(configFile, JSON.stringify({ ...config, humans: agents }, null, 2) + '\n');
  const ids = Array.from({ length: handoffs }, (_, i) => create(main, `handoff ${i + 1}`));
  gitOk(main, 'add', '-A');
  gitOk(main, 'commit', '-q', '-m', 'agentsync init');
  const wt: Record<string, string> = {};
  for (const name of worktrees) {
    wt[name] = path.join(parent, name);
    gitOk(main, 'worktree', 'add', '-q', '-b', name, wt[name]);
  }
  return { main, ids, wt };
}

/** Starts one barrier child per argument list (each in its own folder), releases them together, waits for all. */
async function together(runs: { cwd: string; args: string[] }[], times = 1): Promise<Child[]> {
  const startFile = path.join(tempWorkspace('barrier'), 'start');
  const children = runs.map((r) => {
    const child = startChild(BARRIER, [startFile, String(times), '--', ...r.args]);
    return child;
  });
  // startChild runs in this process's folder: the barrier passes --dir-less args, so each child is told its folder.
  await Promise.all(children.map((c, i) => c.waitForLine((l) => l === 'READY', 30_000, `child ${i} READY`)));
  fs.writeFileSync(startFile, 'go');
  await Promise.all(children.map((c) => c.exited));
  return children;
}

describe('one record per clone across git worktrees', function () {
  this.timeout(240_000);

  it('a claim in one worktree is already_claimed in another at once, and the main checkout lists it claimed', () => {
    const { main, ids, wt } = clone(2, ['agent-claude', 'agent-codex'], ['alice', 'bob']);
    const won = cliJson(path.join(wt['agent-claude']), 'claim', ids[1], '--agent', 'alice');
    assert.equal(won.ok, true, JSON.stringify(won));
    const lost = cliJson(wt['agent-codex'], 'claim', ids[1], '--agent', 'bob');
    assert.equal(lost.ok, false);
    assert.equal(lost.reason, 'already_claimed', JSON.stringify(lost));
    assert.equal(lost.claimedBy, 'alice');
    const mainView = listed(main).find((h) => h.handoff_id === ids[1])!;
    assert.equal(mainView.status, 'in_progress');
    assert.equal(mainView.claimed_by, 'alice');
    // The linked worktrees' checkouts are untouched by the writes; the main one's committed files follow the record.
    assert.equal(status(wt['agent-claude']), '');
    assert.equal(status(wt['agent-codex']), '');
    const committed = JSON.parse(fs.readFileSync(path.join(main, '.agentsync', 'handoffs.json'), 'utf8')) as {
      handoffs: { handoff_id: string; claimed_by?: string }[];
    };
    assert.equal(committed.handoffs.find((h) => h.handoff_id === ids[1])!.claimed_by, 'alice');
  });

  it('6 processes in 6 worktrees claiming one handoff at once: exactly one winner', async () => {
    const names = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
    const agents = names.map((n) => `agent-${n}`);
    const { main, ids, wt } = clone(1, names, agents);
    const children = await together(
      names.map((n, i) => ({ cwd: wt[n], args: ['--dir', wt[n], '--json', 'claim', ids[0], '--agent', agents[i]] })),
    );
    const answers = children.map((c, i) => {
      const out = jsonLines(c.lines);
      assert.equal(out.length, 1, `child ${i}: ${c.lines.join('|')} ${c.stderr}`);
      return out[0];
    });
    const winners = answers.filter((a) => a.ok === true);
    assert.equal(winners.length, 1, `one winner, got ${winners.length}: ${JSON.stringify(answers)}`);
    for (const a of answers.filter((x) => x.ok !== true)) assert.equal(a.reason, 'already_claimed', JSON.stringify(a));
    const winner = agents[answers.findIndex((a) => a.ok === true)];
    for (const dir of [main, ...names.map((n) => wt[n])]) assert.equal(listed(dir)[0].claimed_by, winner, `as ${dir} lists it`);
    for (const n of names) assert.equal(status(wt[n]), '', `${n} stays clean`);
  });

  it('4 worktrees creating 10 handoffs each at once: 40 distinct ids, and every checkout lists the same 40', async () => {
    const names = ['c1', 'c2', 'c3', 'c4'];
    const { main, wt } = clone(0, names);
    const children = await together(
      names.map((n) => ({
        cwd: wt[n],
        args: ['--dir', wt[n], '--json', 'create', '--from', 'claude', '--to', 'codex', '--summary', `${n} #{i}`],
      })),
      10,
    );
    const made = children
      .flatMap((c) => jsonLines(c.lines))
      .map((a) => {
        assert.equal(a.ok, true, JSON.stringify(a));
        return (a.data as { handoff: { handoff_id: string } }).handoff.handoff_id;
      });
    assert.equal(made.length, 40);
    assert.equal(new Set(made).size, 40, `distinct ids: ${made.join(' ')}`);
    const mainList = listed(main);
    assert.equal(mainList.length, 40);
    for (const n of names) assert.deepEqual(listed(wt[n]), mainList, `${n} lists what the main checkout lists`);
    for (const n of names) assert.equal(status(wt[n]), '');
  });

  it('checkout of an old branch, stash and reset --hard in the main worktree lose no record and give no id twice', () => {
    const { main, ids, wt } = clone(2, ['agent-a'], ['alice']);
    gitOk(main, 'branch', 'old');
    const a = wt['agent-a'];
    assert.equal(cliJson(a, 'claim', ids[0], '--agent', 'alice').ok, true);
    const third = create(a, 'made after the commit');
    // stash: the committed copy that followed the record goes back to the commit's
    gitOk(main, 'stash');
    const fourth = create(a, 'made after the stash');
    // reset --hard: the same, by another road
    gitOk(main, 'reset', '-q', '--hard');
    const fifth = create(main, 'made after the reset');
    // an old branch: its committed store lacks everything since
    gitOk(main, 'checkout', '-q', 'old');
    const sixth = create(a, 'made on the old branch');
    gitOk(main, 'checkout', '-q', '-f', 'main');
    const all = [ids[0], ids[1], third, fourth, fifth, sixth];
    assert.equal(new Set(all).size, all.length, `no id twice: ${all.join(' ')}`);
    for (const dir of [main, a]) {
      const seen = listed(dir);
      assert.deepEqual(seen.map((h) => h.handoff_id).sort(), [...all].sort(), `${dir} lists every record`);
      assert.equal(seen.find((h) => h.handoff_id === ids[0])!.claimed_by, 'alice', 'the claim survived');
    }
  });

  for (const count of [0, 2])
    it(`a read dirties nothing in a fresh clone or a new worktree of it (${count} handoffs committed)`, () => {
      const { main } = clone(count, []);
      const parent = fs.realpathSync(tempWorkspace('wtrec-fresh'));
      const fresh = path.join(parent, 'fresh');
      gitOk(parent, 'clone', '-q', main, fresh);
      assert.equal(cli(fresh, 'list').code, 0);
      assert.equal(status(fresh), '', 'a list in a fresh clone leaves its checkout clean');
      const linked = path.join(parent, 'linked');
      gitOk(fresh, 'worktree', 'add', '-q', '-b', 'side', linked);
      assert.equal(cli(linked, 'list').code, 0);
      if (count) assert.equal(cli(path.join(linked, '.agentsync'), 'show', listed(linked)[0].handoff_id).code, 0);
      assert.equal(status(linked), '');
      assert.equal(status(fresh), '');
      gitOk(fresh, 'merge', '-q', 'side');
    });

  it('config_missing: with the main worktree on a branch without AgentSync, a write is refused naming it; nothing is written', () => {
    const { main, ids, wt } = clone(1, ['agent-a'], ['alice']);
    gitOk(main, 'checkout', '-q', '--orphan', 'before-agentsync');
    gitOk(main, 'rm', '-rq', '--cached', '.');
    for (const f of fs.readdirSync(main)) if (f !== '.git') fs.rmSync(path.join(main, f), { recursive: true, force: true });
    const home = path.join(main, '.git', 'agentsync');
    const before = snapshot(home);
    const r = cliJson(wt['agent-a'], 'claim', ids[0], '--agent', 'alice');
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'config_missing', JSON.stringify(r));
    assert.match(String(r.message), new RegExp(main.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.match(String(r.message), /before-agentsync/);
    assert.deepEqual(snapshot(home), before, 'the home is unchanged');
    assert.equal(status(wt['agent-a']), '');
    assert.deepEqual(fs.readdirSync(main), ['.git']);
    // A read still answers from the record.
    assert.equal(listed(wt['agent-a'])[0].handoff_id, ids[0]);
  });

  it('a bare clone with linked worktrees: one record, seeded from HEAD, one winner', () => {
    const { main, ids } = clone(2, [], ['alice', 'bob']);
    const parent = fs.realpathSync(tempWorkspace('wtrec-bare'));
    const bare = path.join(parent, 'repo.git');
    gitOk(parent, 'clone', '-q', '--bare', main, bare);
    const w1 = path.join(parent, 'w1');
    const w2 = path.join(parent, 'w2');
    gitOk(bare, 'worktree', 'add', '-q', w1, 'main');
    gitOk(bare, 'worktree', 'add', '-q', '-b', 'two', w2);
    assert.equal(cliJson(w1, 'claim', ids[0], '--agent', 'alice').ok, true);
    const lost = cliJson(w2, 'claim', ids[0], '--agent', 'bob');
    assert.equal(lost.reason, 'already_claimed', JSON.stringify(lost));
    const id3 = create(w2, 'from the second worktree');
    assert.deepEqual(listed(w1), listed(w2));
    assert.deepEqual(
      listed(w1).map((h) => h.handoff_id),
      [ids[0], ids[1], id3],
    );
    assert.equal(status(w1), '');
    assert.equal(status(w2), '');
    assert.ok(fs.existsSync(path.join(bare, 'agentsync', '@', 'handoffs.json')), 'the record lives in the bare clone');
  });

  it('a worktree whose main checkout was moved: a clear answer, nothing written', () => {
    const { main, ids, wt } = clone(1, ['agent-a'], ['alice']);
    const moved = `${main}-moved`;
    fs.renameSync(main, moved);
    const before = snapshot(moved);
    const beforeWorktree = snapshot(wt['agent-a']);
    for (const args of [['claim', ids[0], '--agent', 'alice'], ['list']]) {
      const r = cli(wt['agent-a'], ...args);
      assert.equal(r.code, 1, `${args[0]}: ${r.stdout}`);
      assert.match(r.stderr, /moved or deleted/);
      assert.match(r.stderr, /git worktree repair/);
    }
    assert.deepEqual(snapshot(moved), before);
    assert.deepEqual(snapshot(wt['agent-a']), beforeWorktree);
  });

  it('a symlinked .agentsync in a worktree: refused store_unsafe, nothing written', () => {
    const { main, ids, wt } = clone(1, ['agent-a'], ['alice']);
    const a = wt['agent-a'];
    const elsewhere = fs.realpathSync(tempWorkspace('wtrec-elsewhere'));
    fs.rmSync(path.join(a, '.agentsync'), { recursive: true, force: true });
    fs.symlinkSync(elsewhere, path.join(a, '.agentsync'));
    const home = path.join(main, '.git', 'agentsync');
    const before = snapshot(home);
    const r = cliJson(a, 'claim', ids[0], '--agent', 'alice');
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'store_unsafe', JSON.stringify(r));
    assert.deepEqual(snapshot(home), before);
    assert.deepEqual(fs.readdirSync(elsewhere), []);
    assert.equal(listed(main)[0].status, 'queued');
  });

  it('upgrading with diverging worktree copies: the records only there are named with the command; nothing merged', () => {
    const { main, ids, wt } = clone(1, ['agent-a']);
    // What an older AgentSync did: the worktree wrote its own copy, which the main checkout never saw.
    fs.rmSync(path.join(main, '.git', 'agentsync'), { recursive: true, force: true });
    const only = JSON.parse(fs.readFileSync(path.join(wt['agent-a'], '.agentsync', 'handoffs.json'), 'utf8')) as {
      handoffs: Record<string, unknown>[];
    };
    const copy = { ...only.handoffs[0], uid: '01JZZZZZZZZZZZZZZZZZZZZZZZ', handoff_id: 'HO-20260101-009', summary: 'only in the worktree' };
    fs.writeFileSync(
      path.join(wt['agent-a'], '.agentsync', 'handoffs.json'),
      JSON.stringify({ ...only, handoffs: [...only.handoffs, copy] }, null, 2) + '\n',
    );
    const r = cli(main, 'list');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /seeded from/);
    assert.match(r.stderr, /HO-20260101-009/);
    assert.match(r.stderr, new RegExp(`agentsync adopt <id> --from ${wt['agent-a'].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.deepEqual(
      listed(main).map((h) => h.handoff_id),
      [ids[0]],
      'nothing merged silently',
    );
    // Said once.
    assert.doesNotMatch(cli(main, 'list').stderr, /seeded from/);
    // The command the notice names brings that one over, deliberately, keeping its uid; a second time is refused.
    const adopted = cliJson(main, 'adopt', 'HO-20260101-009', '--from', wt['agent-a']);
    assert.equal(adopted.ok, true, JSON.stringify(adopted));
    const after = listed(main);
    assert.deepEqual(
      after.map((h) => h.handoff_id),
      [ids[0], 'HO-20260101-009'],
    );
    assert.equal(after[1].uid, '01JZZZZZZZZZZZZZZZZZZZZZZZ');
    assert.deepEqual(listed(wt['agent-a']), after);
    assert.equal(cliJson(main, 'adopt', 'HO-20260101-009', '--from', wt['agent-a']).ok, false);
    assert.equal(cliJson(main, 'adopt', 'HO-20260101-009', '--from', main).reason, 'invalid_request');
  });

  it("upgrading: the home is seeded from the main worktree's store, and the sessions its state.json kept come along", () => {
    const { main } = clone(1, []);
    // A clone from before the home: its record and runtime files beside the store in the checkout.
    fs.rmSync(path.join(main, '.git', 'agentsync'), { recursive: true, force: true });
    const state = { sessions: [{ agent: 'human', id: 'upgrade-session-1', startedAt: '2026-11-27T09:00:00.000Z' }] };
    fs.writeFileSync(path.join(main, '.agentsync', 'state.json'), JSON.stringify(state));
    assert.equal(cli(main, 'list').code, 0);
    const carried = path.join(main, '.git', 'agentsync', '@', 'state.json');
    assert.match(fs.readFileSync(carried, 'utf8'), /upgrade-session-1/);
  });
});
