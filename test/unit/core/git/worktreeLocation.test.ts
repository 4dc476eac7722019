// Finding a folder's worktree and its clone's home by reading files only (docs/contract.md §14), checked against
// what real `git worktree add` and a real bare clone lay out on disk, and against what git itself reports.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  TOP_WORKSPACE_KEY,
  findWorktree,
  homeDir,
  homeKey,
  mainWorkspaceOf,
  type WorktreeLocation,
} from '../../../../src/core/git/worktreeLocation';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';
import { git } from '../../helpers/realGit';

function real(p: string): string {
  return fs.realpathSync.native(p);
}

/** A main checkout with one commit (branch `main`) and a subfolder. */
function newClone(): string {
  const main = path.join(makeTempDir('agentsync-wtloc-'), 'main');
  fs.mkdirSync(path.join(main, 'pkg', 'deep'), { recursive: true });
  git(main, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(main, 'pkg', 'deep', 'f.txt'), 'x\n');
  git(main, 'add', '.');
  git(main, 'commit', '-q', '-m', 'c1');
  return real(main);
}

function located(folder: string): WorktreeLocation {
  const found = findWorktree(folder);
  assert.ok(found, `no worktree found for ${folder}`);
  assert.ok(found.ok, `a problem instead of a location: ${found.ok ? '' : found.problem}`);
  return found.location;
}

/** What git itself says of the folder, to check the file reading against. */
function gitSays(folder: string): { top: string; gitDir: string; commonDir: string } {
  const [top, gitDir, commonDir] = git(
    folder,
    'rev-parse',
    '--path-format=absolute',
    '--show-toplevel',
    '--git-dir',
    '--git-common-dir',
  ).split('\n');
  return { top: real(top), gitDir: real(gitDir), commonDir: real(commonDir) };
}

describe('worktree location (files only)', () => {
  afterEach(removeTempDirs);

  it('the main checkout and a subfolder of it: main worktree, git dir = common dir, home keyed by path', () => {
    const main = newClone();
    const top = located(main);
    const sub = located(path.join(main, 'pkg', 'deep'));
    const g = gitSays(path.join(main, 'pkg', 'deep'));
    for (const loc of [top, sub]) {
      assert.equal(loc.worktreeRoot, g.top);
      assert.equal(loc.gitDir, g.gitDir);
      assert.equal(loc.commonDir, g.commonDir);
      assert.equal(loc.isMain, true);
      assert.equal(loc.name, 'main');
      assert.equal(loc.bare, false);
      assert.equal(loc.mainWorktree, main);
    }
    assert.equal(homeDir(top, main), path.join(main, '.git', 'agentsync', TOP_WORKSPACE_KEY));
    assert.equal(homeKey(top, path.join(main, 'pkg')), 'pkg');
    assert.equal(homeKey(top, path.join(main, 'pkg', 'deep')), 'pkg%2Fdeep');
  });

  it('linked worktrees made by `git worktree add`: their own root and git dir, the shared common dir and home', () => {
    const main = newClone();
    const parent = path.dirname(main);
    git(main, 'worktree', 'add', '-q', '-b', 'agent-a', path.join(parent, 'wt-a'));
    git(main, 'worktree', 'add', '-q', '-b', 'agent-b', path.join(parent, 'wt-b'));
    const mainLoc = located(main);
    for (const name of ['wt-a', 'wt-b']) {
      const wt = real(path.join(parent, name));
      const loc = located(path.join(wt, 'pkg', 'deep'));
      const g = gitSays(path.join(wt, 'pkg', 'deep'));
      assert.equal(loc.worktreeRoot, wt);
      assert.equal(loc.worktreeRoot, g.top);
      assert.equal(loc.gitDir, g.gitDir);
      assert.equal(loc.commonDir, g.commonDir);
      assert.equal(loc.commonDir, mainLoc.commonDir);
      assert.equal(loc.isMain, false);
      assert.equal(loc.name, name);
      assert.equal(loc.mainWorktree, main);
      // One home per workspace path, whichever worktree asks.
      assert.equal(homeDir(loc, wt), homeDir(mainLoc, main));
      assert.equal(homeDir(loc, path.join(wt, 'pkg')), homeDir(mainLoc, path.join(main, 'pkg')));
      assert.equal(mainWorkspaceOf(loc, path.join(wt, 'pkg')), path.join(main, 'pkg'));
    }
  });

  it('a worktree nested inside another is its own: the search stops at the nearest .git entry', () => {
    const main = newClone();
    const nested = path.join(main, '.claude', 'worktrees', 'x');
    git(main, 'worktree', 'add', '-q', '-b', 'nested', nested);
    const loc = located(path.join(nested, 'pkg'));
    assert.equal(loc.worktreeRoot, real(nested));
    assert.equal(loc.isMain, false);
    assert.equal(loc.name, 'x');
    assert.equal(loc.worktreeRoot, gitSays(path.join(nested, 'pkg')).top);
    // The folders between the main checkout and the nested worktree still belong to the main one.
    assert.equal(located(path.join(main, '.claude')).worktreeRoot, main);
  });

  it('a bare clone with linked worktrees: no main worktree, the bare folder as common dir', () => {
    const src = newClone();
    const parent = makeTempDir('agentsync-wtloc-bare-');
    const bare = path.join(parent, 'repo.git');
    git(parent, 'clone', '-q', '--bare', src, bare);
    git(bare, 'worktree', 'add', '-q', path.join(parent, 'wt1'), 'main');
    git(bare, 'worktree', 'add', '-q', '-b', 'two', path.join(parent, 'wt2'));
    const homes = new Set<string>();
    for (const name of ['wt1', 'wt2']) {
      const wt = real(path.join(parent, name));
      const loc = located(path.join(wt, 'pkg'));
      const g = gitSays(path.join(wt, 'pkg'));
      assert.equal(loc.commonDir, real(bare));
      assert.equal(loc.commonDir, g.commonDir);
      assert.equal(loc.gitDir, g.gitDir);
      assert.equal(loc.bare, true);
      assert.equal(loc.isMain, false);
      assert.equal(loc.mainWorktree, null);
      assert.equal(loc.name, name);
      assert.equal(mainWorkspaceOf(loc, wt), null);
      homes.add(homeDir(loc, wt));
    }
    assert.deepEqual([...homes], [path.join(real(bare), 'agentsync', TOP_WORKSPACE_KEY)]);
  });

  it('outside any git checkout: null', () => {
    const plain = makeTempDir('agentsync-wtloc-plain-');
    // The temp dir itself must not sit inside a checkout for this to mean anything.
    if (findWorktree(path.dirname(plain)) === null) assert.equal(findWorktree(plain), null);
    else assert.notEqual(located(plain).worktreeRoot, plain);
  });

  it('a stray .git folder that is no git directory (say an empty /tmp/.git) is passed over, as git does', () => {
    const outer = makeTempDir('agentsync-wtloc-stray-');
    fs.mkdirSync(path.join(outer, '.git', 'agentsync'), { recursive: true });
    const inner = path.join(outer, 'work');
    fs.mkdirSync(inner);
    // git itself finds no repository here (unless the temp dir sits in one).
    const byGit = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: inner, encoding: 'utf8' });
    assert.notEqual(byGit.stdout.trim(), real(outer));
    const found = findWorktree(inner);
    assert.ok(found === null || (found.ok && found.location.worktreeRoot !== real(outer)), JSON.stringify(found));
    // A real clone inside it is still found.
    git(inner, 'init', '-q', '-b', 'main');
    assert.equal(located(inner).worktreeRoot, real(inner));
  });

  it('a worktree whose main checkout was moved or deleted: a problem naming git worktree repair, never a location', () => {
    const main = newClone();
    const parent = path.dirname(main);
    git(main, 'worktree', 'add', '-q', '-b', 'agent-a', path.join(parent, 'wt-a'));
    fs.renameSync(main, path.join(parent, 'main-moved'));
    const found = findWorktree(path.join(parent, 'wt-a', 'pkg'));
    assert.ok(found && !found.ok);
    assert.equal(found.worktreeRoot, real(path.join(parent, 'wt-a')));
    assert.match(found.problem, /moved or deleted/);
    assert.match(found.problem, /git worktree repair/);
    fs.rmSync(path.join(parent, 'main-moved'), { recursive: true, force: true });
    const gone = findWorktree(path.join(parent, 'wt-a'));
    assert.ok(gone && !gone.ok);
    assert.match(gone.problem, /does not exist/);
  });

  it('a linked worktree moved by hand: a problem (git records it elsewhere), never a location', () => {
    const main = newClone();
    const parent = path.dirname(main);
    git(main, 'worktree', 'add', '-q', '-b', 'agent-a', path.join(parent, 'wt-a'));
    fs.renameSync(path.join(parent, 'wt-a'), path.join(parent, 'wt-a-moved'));
    const found = findWorktree(path.join(parent, 'wt-a-moved'));
    assert.ok(found && !found.ok);
    assert.match(found.problem, /moved without git/);
    assert.match(found.problem, /git worktree repair/);
  });

  it('a .git file that is not a gitdir pointer: a problem, and no climb to the checkout around it', () => {
    const main = newClone();
    const inner = path.join(main, 'pkg');
    fs.writeFileSync(path.join(inner, '.git'), 'not a pointer\n');
    const found = findWorktree(path.join(inner, 'deep'));
    assert.ok(found && !found.ok);
    assert.equal(found.worktreeRoot, inner);
  });

  it('starts no process', () => {
    const main = newClone();
    git(main, 'worktree', 'add', '-q', '-b', 'agent-a', path.join(path.dirname(main), 'wt-a'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const cp = require('node:child_process') as typeof import('node:child_process');
    const names = ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork'] as const;
    const saved = names.map((n) => cp[n]);
    let started = 0;
    for (const n of names)
      (cp as Record<string, unknown>)[n] = () => {
        started++;
        throw new Error('a process was started');
      };
    try {
      located(path.join(path.dirname(main), 'wt-a', 'pkg'));
    } finally {
      names.forEach((n, i) => ((cp as Record<string, unknown>)[n] = saved[i]));
    }
    assert.equal(started, 0);
  });
});
