// What a refused request may write (docs/contract.md §9), with real git: on a branch from before AgentSync nothing
// at all (a file created there would be untracked, and `git checkout` back would refuse to overwrite it); on a normal
// branch a refused read goes to the runtime read log and the working tree stays clean; a refused write is audited.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCliIn, runCliSync, tempWorkspace } from './processHarness';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A repository with a branch `old` from before AgentSync, and `main` with AgentSync and a committed audit line. */
function repoWithOldBranch(): string {
  const ws = tempWorkspace('refused-reads');
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'config', 'user.email', 'test@example.com');
  git(ws, 'config', 'user.name', 'AgentSync Test');
  git(ws, 'config', 'commit.gpgsign', 'false');
  fs.writeFileSync(path.join(ws, 'README.md'), 'a project\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'before AgentSync');
  git(ws, 'branch', 'old');
  runCliSync(['--dir', ws, 'init']);
  runCliSync(['--dir', ws, 'create', '--from', 'codex', '--to', 'claude', '--summary', 'first']);
  runCliSync(['--dir', ws, 'list']); // leaves the runtime files (stamp, read log) git ignores on main
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'AgentSync');
  assert.ok(git(ws, 'ls-files', '.agentsync/audit').trim(), 'the audit is committed on main');
  return ws;
}

const status = (ws: string) => git(ws, 'status', '--porcelain', '--untracked-files=all');

describe('refused requests and the committed audit (real git)', function () {
  this.timeout(60_000);

  it('on a branch from before AgentSync, reads answer from the record, writes are refused; no file written, checkout back works', () => {
    const ws = repoWithOldBranch();
    git(ws, 'checkout', '-q', 'old');
    const before = status(ws);
    // The clone's one record stays the record on any branch (docs/contract.md §14); its configuration is gone here.
    const list = runCliIn(ws, ['list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /first/);
    for (const [args, reason] of [
      [['show', 'HO-20260101-001'], /not_found/],
      [['create', '--from', 'codex', '--to', 'claude', '--summary', 's'], /config_missing/],
    ] as const) {
      const r = runCliIn(ws, [...args]);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout + r.stderr, reason);
    }
    assert.equal(status(ws), before, 'no file was created or changed on the old branch');
    git(ws, 'checkout', '-q', 'main'); // throws when an untracked file would be overwritten
    assert.equal(status(ws), '', 'main is clean after the round trip');
  });

  it('in a fresh clone checked out on the old branch, list and a refused claim write no file; checkout back works', () => {
    const origin = repoWithOldBranch();
    const ws = tempWorkspace('refused-reads-clone');
    git(ws, 'clone', '-q', origin, '.');
    git(ws, 'checkout', '-q', 'old');
    assert.equal(status(ws), '');
    const list = runCliIn(ws, ['list']);
    assert.equal(list.stderr, '', 'no warning about a log it could not write');
    assert.equal(runCliIn(ws, ['claim', 'HO-20260101-001', '--agent', 'claude']).code, 1);
    assert.equal(status(ws), '', 'no committed file (audit) was created on the old branch');
    git(ws, 'checkout', '-q', 'main');
    assert.equal(status(ws), '');
  });

  it('on a normal branch, refused reads go to the read log and leave git status clean; a refused write is audited', () => {
    const ws = repoWithOldBranch();
    const auditDir = path.join(ws, '.agentsync/audit');
    const audit = () =>
      fs
        .readdirSync(auditDir)
        .map((f) => fs.readFileSync(path.join(auditDir, f), 'utf8'))
        .join('');
    const committed = audit();
    assert.equal(runCliIn(ws, ['show', 'HO-20260101-009']).code, 1);
    assert.equal(runCliIn(ws, ['list', '--status', 'bogus']).code, 1);
    assert.equal(runCliIn(ws, ['request', '-'], '{"action":"listHandoffs","bogus":1}').code, 1);
    assert.equal(runCliIn(ws, ['request', '-'], '{"action":"noSuchAction"}').code, 1);
    assert.equal(status(ws), '', 'the working tree is clean');
    assert.equal(audit(), committed, 'the committed audit is unchanged');
    // The read log is runtime: in the clone's home (docs/contract.md §14).
    const reads = fs.readFileSync(path.join(ws, '.git/agentsync/@/reads.jsonl'), 'utf8');
    assert.match(reads, /"action":"listHandoffs".*"reason":"invalid_request","refused":true/);
    assert.match(reads, /"action":"noSuchAction".*"reason":"unknown_action","refused":true/);

    assert.equal(runCliIn(ws, ['request', '-'], '{"action":"createHandoff","bogus":1}').code, 1);
    assert.match(audit().slice(committed.length), /"action":"createHandoff".*"reason":"invalid_request","refused":true/);
  });
});
