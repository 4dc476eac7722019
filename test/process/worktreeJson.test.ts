// What the human output of `worktree list`, `list` and `show` says of a handoff's worktree, its JSON carries too
// (docs/contract.md §14 item 5): `worktree_gone` for held work whose worktree was removed by other means, and the
// `merged` offer once its branch reached the default branch. Real git worktrees, the CLI as a process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliAtOk, gitOk } from './processHarness';
import { handoffInWorktree, initializedClone } from './worktreeScene';

interface Gone {
  handoff_id: string;
  worktree: string;
  branch: string;
  message: string;
}
interface Offer {
  handoff_id: string;
  branch: string;
  into: string;
  command: string;
  message: string;
}
interface WorktreeList {
  worktrees: { name: string; handoff: string | null; merged_offer: Offer | null }[];
  worktree_gone: Gone[];
}

const json = <T>(cwd: string, ...args: string[]): T => {
  const answer = JSON.parse(cliAtOk(cwd, '--json', ...args)) as { ok: boolean; data: T };
  assert.equal(answer.ok, true);
  return answer.data;
};

/** A clone with AgentSync and two handoffs from codex to claude, each owning a worktree; the first claimed in it. */
function clone(): { repo: string; wt: string; id: string; other: string } {
  const repo = initializedClone('wt-json');
  const { id, wt } = handoffInWorktree(repo, 'fix it', 'claude-wt', true);
  const other = handoffInWorktree(repo, 'other work', 'other-wt', false).id;
  return { repo, wt, id, other };
}

describe('worktree_gone and the merged offer in --json (process, real git worktrees)', function () {
  this.timeout(180_000);

  it('worktree_gone: in `worktree list --json`, `list --json` and `show --json`, as their human output says it', () => {
    const { repo, wt, id, other } = clone();
    assert.deepEqual(json<WorktreeList>(repo, 'worktree', 'list').worktree_gone, []);
    assert.equal(json<{ worktree_gone?: unknown[] }>(repo, 'list').worktree_gone, undefined, 'only when there is some');
    assert.equal(json<{ worktree_gone?: unknown }>(repo, 'show', id).worktree_gone, undefined);
    fs.rmSync(wt, { recursive: true, force: true });

    const listed = json<WorktreeList>(repo, 'worktree', 'list');
    assert.deepEqual(
      listed.worktree_gone.map((g) => [g.handoff_id, g.worktree, g.branch]),
      [[id, 'claude-wt', `agentsync/${id}`]],
    );
    assert.match(listed.worktree_gone[0].message, /^worktree_gone: .*nothing was released/);
    assert.match(cliAtOk(repo, 'worktree', 'list'), new RegExp(`worktree_gone: the worktree claude-wt .*${id}`));
    const all = json<{ worktree_gone: Gone[] }>(repo, 'list');
    assert.deepEqual(
      all.worktree_gone.map((g) => g.handoff_id),
      [id],
      'the unheld binding is not flagged',
    );
    assert.notEqual(id, other);
    const shown = json<{ worktree_gone?: Gone }>(repo, 'show', id);
    assert.equal(shown.worktree_gone?.handoff_id, id);
    assert.equal(shown.worktree_gone?.message, listed.worktree_gone[0].message);
    assert.match(cliAtOk(repo, 'show', id), new RegExp(shown.worktree_gone.message.slice(0, 40).replace(/[()]/g, '\\$&')));
  });

  it("the merged offer: on the worktree's row of `worktree list --json` and in `show --json`, once merged", () => {
    const { repo, wt, id } = clone();
    fs.writeFileSync(path.join(wt, 'fix.txt'), 'fixed\n');
    gitOk(wt, 'add', 'fix.txt');
    gitOk(wt, 'commit', '-q', '-m', 'the fix');
    cliAtOk(wt, 'complete', id, '--agent', 'claude');
    const rowOf = () => json<WorktreeList>(repo, 'worktree', 'list').worktrees.find((w) => w.name === 'claude-wt')!;
    assert.equal(rowOf().merged_offer, null, 'not before the merge');
    assert.equal(json<{ merged_offer?: Offer }>(repo, 'show', id).merged_offer, undefined);
    gitOk(repo, 'merge', '-q', '--no-ff', '-m', 'merge the fix', `agentsync/${id}`);
    const offer = rowOf().merged_offer;
    assert.equal(offer?.handoff_id, id);
    assert.equal(offer?.into, 'main');
    assert.match(offer.command, new RegExp(`agentsync approve ${id} --agent codex`));
    assert.deepEqual(json<{ merged_offer?: Offer }>(repo, 'show', id).merged_offer, offer);
    assert.ok(cliAtOk(repo, 'show', id).includes(offer.message.slice(0, 60)), 'show says the same');
    assert.ok(cliAtOk(repo, 'worktree', 'list').includes(offer.message.slice(0, 60)), 'worktree list says it too');
    const others = json<WorktreeList>(repo, 'worktree', 'list').worktrees.filter((w) => w.name !== 'claude-wt');
    assert.ok(others.every((w) => w.merged_offer === null));
  });
});
