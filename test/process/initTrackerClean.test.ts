// The tracker `init` writes is what the renderer writes (docs/contract.md §11): after `init` and a commit, a read in a
// fresh clone or a new worktree of that commit leaves AgentTracker.md as committed, so `git status` stays clean and a
// later `git merge` is not stopped by a local change. Real git, the CLI as a process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitOk, runCliIn, runCliSync, tempWorkspace } from './processHarness';

describe('a read after init changes no committed file (real git)', function () {
  this.timeout(60_000);

  for (const flags of [[], ['--git']]) {
    it(`init${flags.map((f) => ` ${f}`).join('')}, commit, fresh clone and worktree: agentsync list leaves git status empty`, () => {
      const top = tempWorkspace('init-tracker');
      const repo = path.join(top, 'repo');
      fs.mkdirSync(repo);
      gitOk(repo, 'init', '-q', '-b', 'main');
      runCliSync(['--dir', repo, 'init', ...flags]);
      gitOk(repo, 'add', '-A');
      gitOk(repo, 'commit', '-q', '-m', 'init');
      const clone = path.join(top, 'clone');
      gitOk(top, 'clone', '-q', repo, clone);
      const worktree = path.join(top, 'worktree');
      gitOk(repo, 'worktree', 'add', '-q', worktree);
      for (const dir of [repo, clone, worktree]) {
        const r = runCliIn(dir, ['list']);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(gitOk(dir, 'status', '--porcelain'), '', `${dir}: ${gitOk(dir, 'diff')}`);
      }
      fs.rmSync(top, { recursive: true, force: true });
    });
  }
});
