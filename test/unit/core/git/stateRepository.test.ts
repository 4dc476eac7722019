// The sync mode's own repository (src/core/git/stateRepository.ts; docs/contract.md §13) against real git: made once
// beside the homes, its config including the clone's (so the clone's remotes resolve there), and its refs read from
// files, loose or packed, as git itself keeps them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureStateRepository, hasRef, isShallow, stateRepositoryDir } from '../../../../src/core/git/stateRepository';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';
import { git } from '../../helpers/realGit';

describe("the sync mode's state repository", () => {
  afterEach(() => removeTempDirs());

  function clone(): { root: string; commonDir: string } {
    const root = makeTempDir('state-repo');
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'remote', 'add', 'origin', 'git://example.invalid/shared.git');
    return { root, commonDir: path.join(root, '.git') };
  }

  it("is made once beside the homes, bare, its config including the clone's: the clone's remote resolves there", () => {
    const { root, commonDir } = clone();
    const dir = ensureStateRepository(root, commonDir, [], []);
    assert.equal(dir, stateRepositoryDir(commonDir));
    assert.equal(dir, path.join(commonDir, 'agentsync', '@state.git'));
    assert.equal(git(root, `--git-dir=${dir}`, 'rev-parse', '--is-bare-repository'), 'true');
    assert.equal(git(root, `--git-dir=${dir}`, 'config', '--get', 'remote.origin.url'), 'git://example.invalid/shared.git');
    assert.equal(isShallow(dir), false);
    // A second call finds it: nothing made again, nothing left aside.
    const marker = path.join(dir, 'description');
    fs.writeFileSync(marker, 'kept');
    assert.equal(ensureStateRepository(root, commonDir, [], []), dir);
    assert.equal(fs.readFileSync(marker, 'utf8'), 'kept');
    assert.deepEqual(fs.readdirSync(path.dirname(dir)), ['@state.git']);
  });

  it('reads a ref loose or packed, as git keeps it, without a git process', () => {
    const { root, commonDir } = clone();
    const dir = ensureStateRepository(root, commonDir, [], []);
    const ref = 'refs/agentsync-fetched/origin/agentsync/state';
    assert.equal(hasRef(dir, ref), false);
    const tree = git(root, `--git-dir=${dir}`, 'mktree'); // the empty tree: a commit needs one
    const commit = git(root, `--git-dir=${dir}`, 'commit-tree', tree, '-m', 'state');
    git(root, `--git-dir=${dir}`, 'update-ref', ref, commit);
    assert.equal(hasRef(dir, ref), true, 'loose');
    git(root, `--git-dir=${dir}`, 'pack-refs', '--all');
    assert.equal(fs.existsSync(path.join(dir, ref)), false, 'git packed it');
    assert.equal(hasRef(dir, ref), true, 'packed');
    assert.equal(hasRef(dir, `${ref}-other`), false);
  });
});
