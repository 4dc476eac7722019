// gitSafety.ts: which filter and diff programs are switched off for every git AgentSync runs (the repository's own,
// not the user's), and that runGit (init --git, the merge drivers) applies it too.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from '../../../../src/core/git/gitCommand';
import { repositoryProgramOverrides, safeGitArgs, SAFE_GIT_OPTIONS } from '../../../../src/core/git/gitSafety';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';

const listing = (...entries: [string, string, string | null][]) =>
  entries.map(([scope, key, value]) => `${scope}\0${key}${value === null ? '' : `\n${value}`}\0`).join('');

describe('git safety: a repository names no program AgentSync runs (core/git/gitSafety.ts)', () => {
  after(removeTempDirs);

  it("empties every program of a filter or diff driver the repository's config (local, worktree) defines, and only those", () => {
    const overrides = repositoryProgramOverrides(
      listing(
        ['local', 'filter.x.clean', 'evil'],
        ['worktree', 'filter.we ird=name.process', 'evil'],
        ['local', 'diff.t.textconv', 'evil'],
        ['local', 'diff.external', 'evil'],
        ['global', 'filter.lfs.clean', 'git-lfs clean -- %f'],
        ['system', 'diff.sys.textconv', 'x'],
        ['local', 'filter.flag.smudge', null],
        ['local', 'diff.t.binary', 'true'],
      ),
    );
    assert.deepEqual(overrides, [
      ['filter.x.clean', ''],
      ['filter.x.smudge', ''],
      ['filter.x.process', ''],
      ['filter.x.required', 'false'],
      ['filter.we ird=name.clean', ''],
      ['filter.we ird=name.smudge', ''],
      ['filter.we ird=name.process', ''],
      ['filter.we ird=name.required', 'false'],
      ['filter.flag.clean', ''],
      ['filter.flag.smudge', ''],
      ['filter.flag.process', ''],
      ['filter.flag.required', 'false'],
      ['diff.t.textconv', ''],
      ['diff.t.command', ''],
      ['diff.external', ''],
    ]);
  });

  it('the overrides go to git as -c options; a driver name -c cannot express (with =) refuses to run git at all', () => {
    assert.deepEqual(safeGitArgs(listing(['local', 'diff.t.textconv', 'evil'])), [
      ...SAFE_GIT_OPTIONS,
      '-c',
      'diff.t.textconv=',
      '-c',
      'diff.t.command=',
    ]);
    assert.deepEqual(safeGitArgs(''), [...SAFE_GIT_OPTIONS]);
    assert.throws(() => safeGitArgs(listing(['local', 'filter.a=b.clean', 'evil'])), /cannot switch off \("filter\.a=b\.clean"\)/);
  });

  it("runGit: a repository's smudge filter does not run (`cat-file --filters` would run it)", () => {
    const repo = makeTempDir('agentsync-rungit-');
    const marker = path.join(makeTempDir('agentsync-marks-'), 'smudge-ran');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, '.gitattributes'), 'a.txt filter=x\n');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git('add', '-A');
    git('-c', 'user.email=e@example.com', '-c', 'user.name=E', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'init');
    git('config', 'filter.x.smudge', `sh -c "echo ran >> ${marker}; cat"`);
    git('config', 'filter.x.required', 'true');
    git('cat-file', '--filters', 'HEAD:a.txt');
    assert.equal(fs.existsSync(marker), true, 'control: plain git runs the smudge filter');
    fs.rmSync(marker);
    const r = runGit(repo, ['cat-file', '--filters', 'HEAD:a.txt']);
    assert.equal(r.ok, true, r.out);
    assert.equal(r.stdout, 'a\n');
    assert.equal(fs.existsSync(marker), false, 'the smudge filter must not run');

    git('config', 'filter.a=b.smudge', `sh -c "echo ran >> ${marker}; cat"`);
    const refused = runGit(repo, ['cat-file', '--filters', 'HEAD:a.txt']);
    assert.equal(refused.ok, false);
    assert.match(refused.out, /names a filter or diff driver AgentSync cannot switch off/);
    assert.equal(fs.existsSync(marker), false);
  });
});
