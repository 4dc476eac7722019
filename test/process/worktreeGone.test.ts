// worktree_gone (docs/contract.md §14 item 5): a worktree bound to a held handoff and removed by other means than
// `agentsync worktree remove` (rm -rf, with or without `git worktree prune`) is noticed by the next sweep (`watch`)
// and shown as worktree_gone in `show`, `list` and the briefing of its holder and originator; the handoff stays held,
// never released silently. Real git worktrees, the CLI as a process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { cliAt, cliAtOk, gitOk } from './processHarness';
import { handoffInWorktree, initializedClone } from './worktreeScene';

interface Briefing {
  worktree_gone?: { handoff_id: string; message: string }[];
}

function briefing(cwd: string, agent: string): Briefing {
  const r = cliAt(cwd, ['request', '-'], JSON.stringify({ action: 'startSession', agent, goal: 'look' }));
  const answer = JSON.parse(r.out) as { ok: boolean; data: { briefing: Briefing } };
  assert.equal(answer.ok, true, r.out + r.err);
  return answer.data.briefing;
}

function record(repo: string, id: string): { status: string; claimed_by?: string | null; worktree?: { name: string } } {
  return (JSON.parse(cliAtOk(repo, '--json', 'show', id)) as { data: { handoff: { status: string; claimed_by?: string | null } } }).data
    .handoff;
}

/** A clone with AgentSync; a handoff from codex to claude owning the worktree `claude-wt`, claimed there by claude. */
function heldInWorktree(): { repo: string; wt: string; id: string; other: string } {
  const repo = initializedClone('wt-gone');
  const { id, wt } = handoffInWorktree(repo, 'fix it', 'claude-wt', true);
  const other = handoffInWorktree(repo, 'other work', 'other-wt', false).id;
  return { repo, wt, id, other };
}

describe('worktree_gone: a held handoff whose worktree was removed by other means (process, real git worktrees)', function () {
  this.timeout(180_000);

  for (const prune of [false, true]) {
    it(`rm -rf${prune ? ' and git worktree prune' : ''}: noticed by the sweep, shown to holder and originator, still held`, () => {
      const { repo, wt, id, other } = heldInWorktree();
      assert.doesNotMatch(cliAtOk(repo, 'show', id), /worktree_gone/, 'not while the worktree is there');
      assert.equal(briefing(repo, 'claude').worktree_gone, undefined);
      fs.rmSync(wt, { recursive: true, force: true });
      if (prune) gitOk(repo, 'worktree', 'prune');
      const watched = cliAt(repo, ['watch', '--once']);
      assert.match(watched.err, new RegExp(`worktree_gone: the worktree claude-wt \\(branch agentsync/${id}\\) was removed`), watched.err);
      const shown = cliAtOk(repo, 'show', id);
      assert.match(shown, /worktree_gone: .*nothing was released/);
      const listed = cliAtOk(repo, 'list');
      assert.match(listed.split('\n').find((l) => l.startsWith(id)) ?? '', /\[worktree_gone\]/, listed);
      assert.doesNotMatch(listed.split('\n').find((l) => l.startsWith(other)) ?? '', /worktree_gone/, 'an unheld binding is not flagged');
      for (const agent of ['claude', 'codex'])
        assert.deepEqual(
          briefing(repo, agent).worktree_gone?.map((g) => g.handoff_id),
          [id],
          `${agent} (holder, originator) is told`,
        );
      assert.equal(briefing(repo, 'gemini').worktree_gone, undefined, 'a bystander is not');
      const hook = cliAt(
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
