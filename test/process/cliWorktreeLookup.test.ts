// A CLI call finds its folder's git worktree and the clone's home once (docs/contract.md §14 item 1: finding them
// reads files only, so the CLI's cost goal holds in a linked worktree): the workspace search, the layout and the
// caller's place share one lookup instead of each reading the same `.git` files. The CLI runs as a real process in a
// real linked worktree; a preloaded script counts the reads of the linked worktree's `commondir`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, NO_SESSION_ENV, cliAt, cliAtOk, gitOk, tempWorkspace } from './processHarness';

/** Runs the CLI in `cwd` with a preload counting readFileSync calls on a `commondir` file; the count and the run. */
function commondirReads(cwd: string, preload: string, args: string[]): { reads: number; out: string } {
  const r = spawnSync(process.execPath, ['-r', preload, CLI, ...args], { cwd, encoding: 'utf8', env: NO_SESSION_ENV });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const line = r.stderr.split('\n').find((l) => l.startsWith('COMMONDIR_READS '));
  assert.ok(line, r.stderr);
  return { reads: Number(line.slice('COMMONDIR_READS '.length)), out: r.stdout };
}

describe('CLI: one worktree lookup per call (process, real git worktree)', function () {
  this.timeout(120_000);

  it('claim, release and list in a linked worktree read its commondir once each, and still write the one record', () => {
    const parent = fs.realpathSync(tempWorkspace('wt-lookup'));
    const repo = path.join(parent, 'repo');
    fs.mkdirSync(repo);
    gitOk(repo, 'init', '-q', '-b', 'main');
    cliAtOk(repo, 'init');
    const id = cliAtOk(repo, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'look once', '--quiet').trim();
    gitOk(repo, 'add', '-A');
    gitOk(repo, 'commit', '-q', '-m', 'agentsync');
    const wt = path.join(parent, 'claude-wt');
    gitOk(repo, 'worktree', 'add', '-q', '-b', 'claude-wt', wt);
    cliAtOk(wt, 'list'); // seeds the home: not what this test counts
    const preload = path.join(parent, 'count-commondir.js');
    fs.writeFileSync(
      preload,
      "const fs = require('node:fs');\nlet n = 0;\nconst read = fs.readFileSync;\n" +
        "fs.readFileSync = function (file, ...rest) { if (String(file).endsWith('commondir')) n++; return read.call(this, file, ...rest); };\n" +
        "process.on('exit', () => process.stderr.write('\\nCOMMONDIR_READS ' + n + '\\n'));\n",
    );
    assert.equal(commondirReads(wt, preload, ['claim', id, '--agent', 'claude']).reads, 1);
    // The claim taken in the linked worktree is the clone's one record: the main worktree sees it held.
    const other = cliAt(repo, ['claim', id, '--agent', 'codex']);
    assert.equal(other.code, 1, other.out + other.err);
    assert.match(other.err, /already_claimed/);
    assert.equal(commondirReads(wt, preload, ['release', id, '--agent', 'claude']).reads, 1);
    const listed = commondirReads(wt, preload, ['list']);
    assert.equal(listed.reads, 1);
    assert.match(listed.out, new RegExp(id));
  });
});
