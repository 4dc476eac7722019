// worktree_gone (docs/contract.md §14 item 5): a worktree bound to a held handoff and removed by other means than
// `agentsync worktree remove` (rm -rf, with or without `git worktree prune`) is noticed by the next sweep (`watch`)
// and shown as worktree_gone in `show`, `list` and the briefing of its holder and originator; the handoff stays held,
// never released silently. Real git worktrees, the CLI as a process.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, GIT_ENV, gitOk, tempWorkspace } from './processHarness';

const ENV: NodeJS.ProcessEnv = { ...GIT_ENV };
for (const k of ['CLAUDE_CODE_SESSION_ID', 'CODEX_THREAD_ID', 'CODEX_SESSION_ID', 'AGENTSYNC_AGENT', 'COPILOT_CLI']) delete ENV[k];

function cli(cwd: string, args: string[], input?: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: ENV, input });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function ok(cwd: string, ...args: string[]): string {
  const r = cli(cwd, args);
  assert.equal(r.code, 0, `agentsync ${args.join(' ')}: ${r.out}${r.err}`);
  return r.out;
}

interface Briefing {
  worktree_gone?: { handoff_id: string; message: string }[];
}

function briefing(cwd: string, agent: string): Briefing {
  const r = cli(cwd, ['request', '-'], JSON.stringify({ action: 'startSession', agent, goal: 'look' }));
  const answer = JSON.parse(r.out) as { ok: boolean; data: { briefing: Briefing } };
  assert.equal(answer.ok, true, r.out + r.err);
  return answer.data.briefing;
}

function record(repo: string, id: string): { status: string; claimed_by?: string | null; worktree?: { name: string } } {
  return (JSON.parse(ok(repo, '--json', 'show', id)) as { data: { handoff: { status: string; claimed_by?: string | null } } }).data.handoff;
}

/** A clone with AgentSync; a handoff from codex to claude owning the worktree `claude-wt`, claimed there by claude. */
function heldInWorktree(): { repo: string; wt: string; id: string; other: string } {
  const repo = path.join(fs.realpathSync(tempWorkspace('wt-gone')), 'repo');
  fs.mkdirSync(repo);
  gitOk(repo, 'init', '-q', '-b', 'main');
  ok(repo, 'init');
  gitOk(repo, 'add', '-A');
  gitOk(repo, 'commit', '-q', '-m', 'agentsync');
  const id = ok(repo, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'fix it', '--quiet').trim();
  const other = ok(repo, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'other work', '--quiet').trim();
  ok(repo, 'worktree', 'add', '../claude-wt', '--handoff', id);
  const wt = path.join(path.dirname(repo), 'claude-wt');
  ok(wt, 'claim', id, '--agent', 'claude');
  ok(repo, 'worktree', 'add', '../other-wt', '--handoff', other);
  return { repo, wt, id, other };
}

describe('worktree_gone: a held handoff whose worktree was removed by other means (process, real git worktrees)', function () {
  this.timeout(180_000);

  for (const prune of [false, true]) {
    it(`rm -rf${prune ? ' and git worktree prune' : ''}: noticed by the sweep, shown to holder and originator, still held`, () => {
      const { repo, wt, id, other } = heldInWorktree();
      assert.doesNotMatch(ok(repo, 'show', id), /worktree_gone/, 'not while the worktree is there');
      assert.equal(briefing(repo, 'claude').worktree_gone, undefined);
      fs.rmSync(wt, { recursive: true, force: true });
      if (prune) gitOk(repo, 'worktree', 'prune');
      const watched = cli(repo, ['watch', '--once']);
      assert.match(watched.err, new RegExp(`worktree_gone: the worktree claude-wt \\(branch agentsync/${id}\\) was removed`), watched.err);
      const shown = ok(repo, 'show', id);
      assert.match(shown, /worktree_gone: .*nothing was released/);
      const listed = ok(repo, 'list');
      assert.match(listed.split('\n').find((l) => l.startsWith(id)) ?? '', /\[worktree_gone\]/, listed);
      assert.doesNotMatch(listed.split('\n').find((l) => l.startsWith(other)) ?? '', /worktree_gone/, 'an unheld binding is not flagged');
      for (const agent of ['claude', 'codex'])
        assert.deepEqual(
          briefing(repo, agent).worktree_gone?.map((g) => g.handoff_id),
          [id],
          `${agent} (holder, originator) is told`,
        );
      assert.equal(briefing(repo, 'gemini').worktree_gone, undefined, 'a bystander is not');
      const hook = cli(
        repo,
        ['hook', 'session-start', '--agent', 'claude', '--format', 'claude'],
        JSON.stringify({ cwd: repo, hook_event_name: 'SessionStart' }),
      );
      assert.match(hook.out, /worktree_gone/, hook.out + hook.err);
      const h = record(repo, id);
      assert.equal(h.status, 'in_progress', 'never released silently');
      assert.equal(h.claimed_by, 'claude');
    });
  }
});
