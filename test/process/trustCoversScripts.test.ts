// `agentsync trust` approves what a command runs, not only its text: a clone's `"build": "./build.sh"` is trusted,
// then a `git pull` changes build.sh; the next health request is refused with commands_untrusted naming build.sh, and
// nothing runs until a new trust (docs/agentsync-documentation.md, "Trusting a workspace's commands"). Real CLI
// processes, real git; AGENTSYNC_TRUST_FILE keeps the user's own trust records out of it.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, runCliIn, tempWorkspace } from './processHarness';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const commit = (cwd: string, message: string) => {
  git(cwd, 'add', '-A');
  git(cwd, '-c', 'user.email=o@example.com', '-c', 'user.name=O', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', message);
};

describe('trust covers the script a trusted command runs (processes, git pull)', function () {
  this.timeout(120_000);
  let base: string;
  let origin: string;
  let clone: string;
  let previous: string | undefined;
  let health: string;

  before(() => {
    base = tempWorkspace('trustscript');
    previous = process.env.AGENTSYNC_TRUST_FILE;
    process.env.AGENTSYNC_TRUST_FILE = path.join(base, 'user-config', 'trusted.json');
    origin = path.join(base, 'origin');
    fs.mkdirSync(origin);
    git(origin, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(origin, '.agentsync.json'), JSON.stringify({ commands: { build: './build.sh' } }));
    fs.writeFileSync(path.join(origin, 'build.sh'), '#!/bin/sh\necho built > built.txt\n', { mode: 0o755 });
    commit(origin, 'build');
    clone = path.join(base, 'clone');
    git(base, 'clone', '-q', origin, clone);
    health = path.join(base, 'health.json');
    fs.writeFileSync(health, JSON.stringify({ action: 'health' }));
  });

  after(() => {
    if (previous === undefined) delete process.env.AGENTSYNC_TRUST_FILE;
    else process.env.AGENTSYNC_TRUST_FILE = previous;
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('agentsync trust says it approves build.sh as it is now, and the build runs', () => {
    const t = runCliIn(clone, ['trust']);
    assert.equal(t.code, 0, t.stderr);
    assert.match(
      t.stdout,
      /build: \.\/build\.sh\nand what they run from the repository, as it is now:\n {2}build\.sh \(sha256 [0-9a-f]{12}…\)/,
    );
    assert.match(t.stdout, /or to a file or package\.json script they run, needs a new `agentsync trust`/);
    const shown = JSON.parse(runCliIn(clone, ['--json', 'trust', '--show']).stdout) as {
      data: { trusted: boolean; runs: Record<string, string> };
    };
    assert.equal(shown.data.trusted, true);
    assert.match(shown.data.runs['build.sh'], /^[0-9a-f]{64}$/);
    const r = runCliIn(clone, ['request', health]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(fs.readFileSync(path.join(clone, 'built.txt'), 'utf8'), 'built\n');
  });

  it('after a git pull that changes build.sh: refused with commands_untrusted naming build.sh; nothing runs until a new trust', () => {
    fs.writeFileSync(path.join(origin, 'build.sh'), '#!/bin/sh\necho pwned > pwned.txt\n', { mode: 0o755 });
    commit(origin, 'a new build');
    git(clone, 'pull', '-q', '--ff-only');
    const r = runCliIn(clone, ['request', health]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const response = JSON.parse(r.stdout) as { reason: string; message: string; changes: string[] };
    assert.equal(response.reason, 'commands_untrusted');
    assert.deepEqual(response.changes, ['build.sh changed']);
    assert.match(response.message, /what they run changed since \(build\.sh changed\)/);
    assert.equal(fs.existsSync(path.join(clone, 'pwned.txt')), false, 'the pulled script must not run');
    const show = runCliIn(clone, ['trust', '--show']);
    assert.match(show.stdout, /NOT trusted: the commands were approved, but what they run changed since \(build\.sh changed\)/);
    assert.equal(runCliIn(clone, ['trust']).code, 0);
    assert.equal(runCliIn(clone, ['request', health]).code, 0);
    assert.equal(fs.existsSync(path.join(clone, 'pwned.txt')), true, 'after a new trust it runs');
  });
});

describe('a relative AGENTSYNC_TRUST_FILE is under the home folder, never in the repository (process)', function () {
  this.timeout(60_000);
  let home: string;
  let repo: string;
  after(() => {
    for (const d of [home, repo]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('agentsync trust run from the repository with AGENTSYNC_TRUST_FILE=trust/records.json writes $HOME/trust/records.json', () => {
    home = tempWorkspace('trusthome');
    repo = tempWorkspace('trustrepo');
    fs.writeFileSync(path.join(repo, '.agentsync.json'), JSON.stringify({ commands: { build: ['make'] } }));
    const env = { ...process.env, HOME: home, USERPROFILE: home, AGENTSYNC_TRUST_FILE: path.join('trust', 'records.json') };
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: repo, env, encoding: 'utf8' });
    const t = run('trust');
    assert.equal(t.status, 0, t.stderr);
    assert.equal(fs.existsSync(path.join(home, 'trust', 'records.json')), true, 'the record is in the home folder');
    assert.equal(fs.existsSync(path.join(repo, 'trust')), false, 'nothing about trust is written into the repository');
    const shown = JSON.parse(run('--json', 'trust', '--show').stdout) as { data: { trusted: boolean; trustFile: string } };
    assert.equal(shown.data.trustFile, path.join(home, 'trust', 'records.json'));
    assert.equal(shown.data.trusted, true);
  });
});
