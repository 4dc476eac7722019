// The `merged` offer (docs/contract.md §14 item 5): when a handoff's worktree branch, moved on from the commit its
// binding recorded, becomes reachable from the default branch (a merge or a fast-forward), the originator is offered
// the move that records it, in the briefing, in `show` and by the sweep; nothing is set. A squash merge is not
// detected. Real git worktrees and merges, the CLI as a process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliAt, cliAtOk, gitOk } from './processHarness';
import { handoffInWorktree, initializedClone } from './worktreeScene';

function offers(cwd: string, agent: string): { handoff_id: string; command: string }[] | undefined {
  const r = cliAt(cwd, ['request', '-'], JSON.stringify({ action: 'startSession', agent, goal: 'look' }));
  const answer = JSON.parse(r.out) as { ok: boolean; data: { briefing: { merged_offers?: { handoff_id: string; command: string }[] } } };
  assert.equal(answer.ok, true, r.out + r.err);
  return answer.data.briefing.merged_offers;
}

/** A clone; a handoff from codex to claude owning `claude-wt`, where claude claimed it, committed work and completed it. */
function workDone(): { repo: string; wt: string; id: string } {
  const repo = initializedClone('wt-merged');
  const { id, wt } = handoffInWorktree(repo, 'fix it', 'claude-wt', true);
  fs.writeFileSync(path.join(wt, 'fix.txt'), 'fixed\n');
  gitOk(wt, 'add', 'fix.txt');
  gitOk(wt, 'commit', '-q', '-m', 'the fix');
  cliAtOk(wt, 'complete', id, '--agent', 'claude');
  return { repo, wt, id };
}

describe('the merged offer when a worktree branch reaches the default branch (process, real git)', function () {
  this.timeout(180_000);

  it('offered to the originator in the briefing, show and the sweep once merged; never set', () => {
    const { repo, id } = workDone();
    assert.equal(offers(repo, 'codex'), undefined, 'not before the merge');
    assert.doesNotMatch(cliAtOk(repo, 'show', id), /merged: the branch/);
    gitOk(repo, 'merge', '-q', '--no-ff', '-m', 'merge the fix', `agentsync/${id}`);
    const offered = offers(repo, 'codex');
    assert.deepEqual(
      offered?.map((o) => o.handoff_id),
      [id],
    );
    assert.match(offered[0].command, new RegExp(`agentsync approve ${id} --agent codex`));
    assert.equal(offers(repo, 'claude'), undefined, 'only the originator is offered it');
    assert.match(cliAtOk(repo, 'show', id), new RegExp(`merged: the branch agentsync/${id} of ${id} \\(at [0-9a-f]{12}\\) reached main`));
    const hook = cliAt(
      repo,
      ['hook', 'session-start', '--agent', 'codex', '--format', 'codex'],
      JSON.stringify({ cwd: repo, hook_event_name: 'SessionStart' }),
    );
    assert.match(hook.out, /reached main/, hook.out + hook.err);
    const watched = cliAt(repo, ['watch', '--once', '--verbose']);
    assert.match(watched.err, new RegExp(`merged: the branch agentsync/${id}`), watched.err);
    assert.equal(
      (JSON.parse(cliAtOk(repo, '--json', 'show', id)) as { data: { handoff: { status: string } } }).data.handoff.status,
      'ready_for_review',
    );
  });

  it('a squash merge is not detected (the docs say so)', () => {
    const { repo, id } = workDone();
    gitOk(repo, 'merge', '-q', '--squash', `agentsync/${id}`);
    gitOk(repo, 'commit', '-q', '-m', 'squashed fix');
    assert.ok(fs.existsSync(path.join(repo, 'fix.txt')));
    assert.equal(offers(repo, 'codex'), undefined);
  });
});
