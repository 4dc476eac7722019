// Sync mode and worktrees compose (docs/contract.md §14): the linked worktrees of a sync clone share its home, its
// fetched refs and its sync.json, so a write from any of them is one push, and the branch check covers every worktree.
// Real git daemon on 127.0.0.1, real `git worktree`s, the CLI as a real process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliAsync, countingProxy, create, git, GitServer } from './gitServer';
import { runCliIn } from './processHarness';

describe('sync mode from linked worktrees (git daemon on 127.0.0.1)', function () {
  this.timeout(120_000);
  let server: GitServer;

  beforeEach(async () => {
    server = new GitServer();
    await server.start();
  });
  afterEach(async () => {
    await server.stop();
  });

  /** A sync clone with its state pushed once (so the clone has a commit to branch from) and two linked worktrees. */
  function cloneWithWorktrees(): { main: string; one: string; two: string; ids: string[] } {
    const main = server.clone('wt');
    const ids = ['first', 'second'].map((s) => cli(main, ['request', '-'], create(s)).data!.handoff!.handoff_id);
    fs.writeFileSync(path.join(main, 'README.md'), 'code\n');
    git(main, ['add', 'README.md']);
    git(main, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'code']);
    const one = path.join(path.dirname(main), 'agent-one');
    const two = path.join(path.dirname(main), 'agent-two');
    git(main, ['worktree', 'add', '-q', '-b', 'agentsync-one', one]);
    git(main, ['worktree', 'add', '-q', '-b', 'agent-two', two]);
    return { main, one, two, ids };
  }

  it('a write from each linked worktree is one push, and every checkout sees it at once', async () => {
    const { main, one, two, ids } = cloneWithWorktrees();
    const before = server.remoteLog().length;
    const proxy = await countingProxy(server.port);
    try {
      // The remote's url is in the clone's config, which every worktree shares.
      git(main, ['remote', 'set-url', 'origin', `git://127.0.0.1:${proxy.port}/shared.git`]);
      const fromOne = await cliAsync(one, ['claim', ids[0], '--agent', 'claude']);
      assert.equal(fromOne.ok, true, JSON.stringify(fromOne));
      assert.equal((fromOne.data!.sync as { confirmed: boolean }).confirmed, true);
      assert.equal(proxy.connections(), 1, 'the claim from worktree agent-one: one push, no fetch');
      const fromTwo = await cliAsync(two, ['claim', ids[1], '--agent', 'codex']);
      assert.equal(fromTwo.ok, true, JSON.stringify(fromTwo));
      assert.equal((fromTwo.data!.sync as { confirmed: boolean }).confirmed, true);
      assert.equal(proxy.connections(), 2, 'the claim from worktree agent-two: one push, no fetch');
    } finally {
      await proxy.close();
    }
    assert.equal(server.remoteLog().length, before + 2, 'two writes, two commits on the shared ref');
    for (const ws of [main, one, two]) {
      const listed = cli(ws, ['list']);
      const byId = new Map(
        (listed.data!.handoffs as { handoff_id: string; claimed_by?: string }[]).map((h) => [h.handoff_id, h.claimed_by]),
      );
      assert.deepEqual([byId.get(ids[0]), byId.get(ids[1])], ['claude', 'codex'], `listed in ${path.basename(ws)}`);
    }
    const again = cli(two, ['claim', ids[0], '--agent', 'codex']);
    assert.deepEqual([again.ok, again.reason, again.claimedBy], [false, 'already_claimed', 'claude']);
  });

  it('sync.ref naming the branch a linked worktree has checked out is invalid_config, from every worktree; nothing pushed', () => {
    const { main, one, ids } = cloneWithWorktrees();
    const config = path.join(main, '.agentsync.json');
    fs.writeFileSync(config, JSON.stringify({ sync: { remote: 'origin', ref: 'refs/heads/agentsync-one' } }));
    // The user agrees to the new ref (a changed ref asks again); the branch check is what must refuse it.
    runCliIn(main, ['sync', '--enable']);
    const log = server.remoteLog();
    for (const ws of [main, one]) {
      const claim = cli(ws, ['claim', ids[0], '--agent', 'claude']);
      assert.equal(claim.reason, 'invalid_config', `from ${path.basename(ws)}: ${JSON.stringify(claim)}`);
      assert.match(String(claim.detail ?? claim.message), /agentsync-one/);
    }
    assert.deepEqual(server.remoteLog(), log);
    assert.equal(git(main, ['ls-remote', server.url, 'refs/heads/agentsync-one']), '', 'no branch pushed');
  });
});
