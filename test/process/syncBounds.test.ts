// The shared ref is input from the remote (docs/contract.md §13): an object on it is sized before it is read, so a
// huge handoffs.json there is a clear refusal naming the ref, never a buffer overflow ("install git") nor hundreds of
// megabytes read. Real processes, real git (`git daemon`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, create, git, gitServerPerTest, storeBytes } from './gitServer';
import { tempWorkspace } from './processHarness';

describe('sync: bounds on what the shared ref holds', function () {
  this.timeout(180_000);
  const server = gitServerPerTest();

  it('a handoffs.json over the local store cap on the shared ref is refused too_large before it is read; nothing changes', () => {
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('before the blob')).ok, true);
    const bare = path.join(server.base, 'shared.git');
    const head = git(bare, ['rev-parse', 'refs/agentsync/state']);
    // A valid store padded with blanks to just over 200 MiB (valid JSON, so only its size is wrong), pushed on the ref.
    const good = git(bare, ['show', `${head}:handoffs.json`]);
    const big = path.join(tempWorkspace('bigblob'), 'handoffs.json');
    const fd = fs.openSync(big, 'w');
    const end = good.lastIndexOf('}');
    fs.writeSync(fd, good.slice(0, end));
    const blanks = Buffer.alloc(8 * 1024 * 1024, 0x20);
    for (let i = 0; i < 26; i++) fs.writeSync(fd, blanks);
    fs.writeSync(fd, `${good.slice(end)}\n`);
    fs.closeSync(fd);
    assert.ok(fs.statSync(big).size > 200 * 1024 * 1024);
    const blob = git(bare, ['hash-object', '-w', big]);
    fs.rmSync(big);
    const ledger = git(bare, ['rev-parse', `${head}:ledger.jsonl`]);
    const tree = git(bare, ['mktree'], `100644 blob ${blob}\thandoffs.json\n100644 blob ${ledger}\tledger.jsonl\n`);
    const commit = git(bare, ['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit-tree', tree, '-p', head, '-m', 'huge']);
    git(bare, ['update-ref', 'refs/agentsync/state', commit]);
    const before = storeBytes(a);
    for (const args of [['create', '--from', 'codex', '--to', 'claude', '--summary', 'after the blob'], ['sync']]) {
      const r = cli(a, args);
      assert.equal(r.ok, false, JSON.stringify(r).slice(0, 2000));
      assert.equal(r.reason, 'too_large', JSON.stringify(r).slice(0, 2000));
      assert.match(String(r.message), /refs\/agentsync\/state.*handoffs\.json of \d+ bytes, over the \d+-byte limit/s);
      assert.doesNotMatch(String(r.message), /install git/);
    }
    assert.equal(git(bare, ['rev-parse', 'refs/agentsync/state']), commit, 'nothing pushed');
    assert.deepEqual(storeBytes(a), before, 'nothing changed here');
  });

  it('a ledger.jsonl on the shared ref that is not a ledger is store_invalid naming the line; nothing changes', () => {
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('before the garbage')).ok, true);
    const bare = path.join(server.base, 'shared.git');
    const head = git(bare, ['rev-parse', 'refs/agentsync/state']);
    const good = git(bare, ['show', `${head}:ledger.jsonl`]).split('\n')[0];
    const state = git(bare, ['rev-parse', `${head}:handoffs.json`]);
    const garbage = git(bare, ['hash-object', '-w', '--stdin'], `${good}\n\u0000\u0001 this is not JSON\n{"x":1}\n`);
    const tree = git(bare, ['mktree'], `100644 blob ${state}\thandoffs.json\n100644 blob ${garbage}\tledger.jsonl\n`);
    const commit = git(bare, ['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit-tree', tree, '-p', head, '-m', 'garbage']);
    git(bare, ['update-ref', 'refs/agentsync/state', commit]);
    const before = storeBytes(a);
    for (const args of [['create', '--from', 'codex', '--to', 'claude', '--summary', 'after the garbage'], ['sync']]) {
      const r = cli(a, args);
      assert.equal(r.ok, false, JSON.stringify(r));
      assert.equal(r.reason, 'store_invalid', JSON.stringify(r));
      assert.ok(String(r.message).includes(commit), String(r.message));
      assert.match(String(r.message), /ledger\.jsonl line 2 is not JSON/);
    }
    assert.equal(git(bare, ['rev-parse', 'refs/agentsync/state']), commit, 'nothing pushed');
    assert.deepEqual(storeBytes(a), before, 'nothing changed here');
  });
});
