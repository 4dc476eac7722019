// The `agentsync` command for editor-only installs (src/core/disk/commandLauncher.ts) and the hook guard for a
// missing command (src/core/hooks/missingCommand.ts), run for real: the launcher is written to a temp home and
// executed by /bin/sh; the guard runs under sh with and without an `agentsync` on PATH.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installLauncher, isOnPath, launcherText, refreshLauncher, userBinFolder } from '../../../../src/core/disk/commandLauncher';
import { guardedHookCommand, MISSING_COMMAND_MESSAGE } from '../../../../src/core/hooks/missingCommand';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');
const CLI = path.join(REPO_ROOT, 'bin/agentsync.js');
const posix = process.platform !== 'win32';

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `agentsync-${prefix}-`));
}

describe('the agentsync launcher for editor installs', function () {
  this.timeout(60_000);
  before(function () {
    if (!posix) this.skip();
  });

  it('installs into ~/.local/bin (created), runs the bundled CLI, and says what to add to PATH when the folder is not on it', () => {
    const home = tempDir('home');
    const bin = userBinFolder(home);
    const outcome = installLauncher(bin, { cli: CLI, runtime: process.execPath }, '/usr/bin:/bin', home);
    assert.equal(outcome.ok, true);
    if (!outcome.ok) return;
    assert.equal(outcome.file, path.join(home, '.local', 'bin', 'agentsync'));
    assert.equal(outcome.changed, true);
    assert.equal(outcome.onPath, false);
    assert.match(outcome.pathHint ?? '', /export PATH="\$HOME\/\.local\/bin:\$PATH"/);
    assert.equal(fs.statSync(outcome.file).mode & 0o111, 0o111);
    const help = spawnSync(outcome.file, ['--help'], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /usage: agentsync/);
    const again = installLauncher(bin, { cli: CLI, runtime: process.execPath }, `/usr/bin:${bin}`);
    assert.deepEqual(again, { ok: true, file: outcome.file, changed: false, onPath: true, pathHint: null });
  });

  it('never overwrites a file it did not write (another agentsync, or a symlink)', () => {
    const bin = tempDir('bin');
    const file = path.join(bin, 'agentsync');
    fs.writeFileSync(file, '#!/bin/sh\necho mine\n');
    const outcome = installLauncher(bin, { cli: CLI, runtime: process.execPath }, '');
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.reason, 'foreign_file');
    assert.equal(fs.readFileSync(file, 'utf8'), '#!/bin/sh\necho mine\n');
    const linkBin = tempDir('bin-link');
    fs.symlinkSync(file, path.join(linkBin, 'agentsync'));
    const viaLink = installLauncher(linkBin, { cli: CLI, runtime: process.execPath }, '');
    assert.equal(!viaLink.ok && viaLink.reason, 'foreign_file');
    assert.equal(fs.readFileSync(file, 'utf8'), '#!/bin/sh\necho mine\n');
    assert.equal(refreshLauncher(file, { cli: CLI, runtime: process.execPath }), false);
  });

  it('a launcher of ours pointing at an old extension folder is refreshed; with its CLI gone it says what to do', () => {
    const bin = tempDir('bin-old');
    const gone = { cli: path.join(tempDir('old-ext'), 'bin', 'agentsync.js'), runtime: process.execPath };
    const first = installLauncher(bin, gone, '');
    assert.equal(first.ok, true);
    const file = path.join(bin, 'agentsync');
    const stale = spawnSync(file, ['--help'], { encoding: 'utf8' });
    assert.equal(stale.status, 127);
    assert.match(stale.stderr, /Install 'agentsync' Command in PATH/);
    assert.equal(refreshLauncher(file, { cli: CLI, runtime: process.execPath }), true);
    assert.equal(fs.readFileSync(file, 'utf8'), launcherText({ cli: CLI, runtime: process.execPath }));
    assert.equal(spawnSync(file, ['--help'], { encoding: 'utf8' }).status, 0);
  });

  it('without the editor runtime it falls back to node on PATH', () => {
    const bin = tempDir('bin-node');
    installLauncher(bin, { cli: CLI, runtime: path.join(tempDir('no-runtime'), 'code') }, '');
    const r = spawnSync(path.join(bin, 'agentsync'), ['--help'], {
      encoding: 'utf8',
      env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /usage: agentsync/);
  });

  it('isOnPath compares folders, not text', () => {
    assert.equal(isOnPath('/home/a/.local/bin', '/usr/bin:/home/a/.local/bin/', 'linux'), true);
    assert.equal(isOnPath('/home/a/.local/bin', '/usr/bin:/home/a/.local/binx', 'linux'), false);
    assert.equal(isOnPath('C:\\Users\\A\\bin', 'c:\\users\\a\\bin;C:\\Windows', 'win32'), true);
  });
});

describe('hook commands when agentsync is missing', () => {
  before(function () {
    if (!posix) this.skip();
  });

  it('without agentsync on PATH: the message says how to install it, exit 1 (non-blocking), nothing on stdout', () => {
    const r = spawnSync('/bin/sh', ['-c', guardedHookCommand('agentsync hook post-tool-use --agent claude')], {
      encoding: 'utf8',
      env: { PATH: tempDir('empty-path') },
      input: '{}',
    });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim(), MISSING_COMMAND_MESSAGE);
    assert.match(r.stderr, /Install 'agentsync' Command in PATH/);
  });

  it('with agentsync on PATH: the command runs with the hook input and its answer and exit code', () => {
    const bin = tempDir('fake-bin');
    fs.writeFileSync(path.join(bin, 'agentsync'), '#!/bin/sh\necho "args: $*"; cat; exit 3\n', { mode: 0o755 });
    const r = spawnSync('/bin/sh', ['-c', guardedHookCommand('agentsync hook stop --agent codex')], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/bin:/bin` },
      input: '{"x":1}',
    });
    assert.equal(r.status, 3);
    assert.equal(r.stdout, 'args: hook stop --agent codex\n{"x":1}');
  });

  it('refuses a command that is not an agentsync command', () => {
    assert.throws(() => guardedHookCommand('rm -rf /'), /starts with "agentsync "/);
  });
});
