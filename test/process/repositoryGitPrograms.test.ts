// A repository's git config names programs (a clean filter, a diff textconv, an external diff) and its committed
// .gitattributes sends files through them. Ending a session from the CLI reads git (hot files, branch) and must run
// none of them (docs/agentsync-documentation.md, "Hot files from git"). Real CLI processes on a real repository.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCliIn, runCliSync, tempWorkspace } from './processHarness';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe("a repository's git filters and diff programs never run when the CLI ends a session (processes, git)", function () {
  this.timeout(120_000);
  let repo: string;
  let marks: string;
  const ran = (name: string) => path.join(marks, `${name}-ran`);

  before(() => {
    repo = tempWorkspace('gitprograms');
    marks = tempWorkspace('gitprograms-marks');
    git(repo, 'init', '-q', '-b', 'main');
    runCliSync(['--dir', repo, 'init']);
    fs.writeFileSync(path.join(repo, '.gitattributes'), 'a.txt filter=x diff=t\n');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.email=e@example.com', '-c', 'user.name=E', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'init');
    const script = path.join(marks, 'record-and-cat.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho ran >> "$1"\ncat\n', { mode: 0o755 });
    git(repo, 'config', 'filter.x.clean', `${script} ${ran('clean')}`);
    git(repo, 'config', 'filter.x.smudge', `${script} ${ran('smudge')}`);
    git(repo, 'config', 'diff.t.textconv', `${script} ${ran('textconv')}`);
    git(repo, 'config', 'diff.external', `${script} ${ran('external')}`);
  });

  after(() => {
    for (const d of [repo, marks]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  function touch(): void {
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(repo, 'a.txt'), later, later);
  }

  it('control: plain `git status` runs the clean filter of a touched file', () => {
    touch();
    git(repo, 'status', '--porcelain');
    assert.equal(fs.existsSync(ran('clean')), true);
    fs.rmSync(ran('clean'));
  });

  it('`agentsync request` endSession: git is read (branch), no program the repository names runs', () => {
    touch();
    const file = path.join(marks, 'end.json');
    fs.writeFileSync(file, JSON.stringify({ action: 'endSession', agent: 'claude', summary: 'done' }));
    const r = runCliIn(repo, ['request', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const response = JSON.parse(r.stdout) as { ok: boolean; data: { branch: string; hotFiles: string[] } };
    assert.equal(response.data.branch, 'main', 'git was read');
    assert.deepEqual(response.data.hotFiles, [], 'a touched file with unchanged contents is not hot');
    for (const f of ['clean', 'smudge', 'textconv', 'external']) assert.equal(fs.existsSync(ran(f)), false, `${f} must not run`);
  });
});

describe("a partial clone's lazy fetch never runs the repository's ssh program when the CLI ends a session (processes, git)", function () {
  this.timeout(120_000);
  let repo: string;
  let marks: string;

  before(() => {
    repo = tempWorkspace('lazyfetch');
    marks = tempWorkspace('lazyfetch-marks');
    const commit = (...args: string[]) =>
      git(repo, '-c', 'user.email=e@example.com', '-c', 'user.name=E', '-c', 'commit.gpgsign=false', 'commit', '-q', ...args);
    git(repo, 'init', '-q', '-b', 'main');
    runCliSync(['--dir', repo, 'init']);
    fs.writeFileSync(path.join(repo, 'old.txt'), Array.from({ length: 200 }, (_, i) => `${i + 1}\n`).join(''));
    git(repo, 'add', '-A');
    commit('-m', 'init');
    const blob = git(repo, 'rev-parse', 'HEAD:old.txt').trim();
    // A staged rename with a change: inexact rename detection in `git status` reads the old blob, which is "in the
    // promisor remote" once its loose object is gone.
    git(repo, 'mv', 'old.txt', 'new.txt');
    fs.appendFileSync(path.join(repo, 'new.txt'), 'extra\n');
    git(repo, 'add', 'new.txt');
    fs.rmSync(path.join(repo, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    git(repo, 'config', 'core.repositoryformatversion', '1');
    git(repo, 'config', 'extensions.partialClone', 'origin');
    git(repo, 'config', 'remote.origin.url', 'ssh://example.invalid/r.git');
    git(repo, 'config', 'remote.origin.promisor', 'true');
    git(repo, 'config', 'remote.origin.uploadpack', `touch ${path.join(marks, 'uploadpack-ran')}; false`);
    git(repo, 'config', 'core.sshCommand', `touch ${path.join(marks, 'ssh-ran')}; false`);
  });

  after(() => {
    for (const d of [repo, marks]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('control: plain `git status` lazily fetches and runs core.sshCommand', () => {
    try {
      execFileSync('git', ['status', '--short'], { cwd: repo, stdio: 'ignore' });
    } catch {
      // the fetch fails (the program exits 1); what matters is that it ran
    }
    assert.equal(fs.existsSync(path.join(marks, 'ssh-ran')), true);
    fs.rmSync(path.join(marks, 'ssh-ran'));
  });

  it('`agentsync request` endSession: no lazy fetch, neither core.sshCommand nor uploadpack runs', () => {
    const file = path.join(marks, 'end.json');
    fs.writeFileSync(file, JSON.stringify({ action: 'endSession', agent: 'claude', summary: 'done' }));
    const r = runCliIn(repo, ['request', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      fs.readdirSync(marks).filter((f) => f.endsWith('-ran')),
      [],
    );
  });
});
