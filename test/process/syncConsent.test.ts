// A committed `sync` section is input from the repository (docs/contract.md §13): its ref stays in AgentSync's own
// namespace, a clone pushes only once its user agreed (`agentsync sync --enable`, kept outside the repository), and a
// sync.json entry that does not parse is dropped with a warning. Real processes, real git (`git daemon`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, create, git, gitServerPerTest, storeBytes } from './gitServer';
import { runCliIn, tempWorkspace } from './processHarness';

describe('sync: the committed section, consent and sync.json', function () {
  this.timeout(120_000);
  const server = gitServerPerTest();

  /** A newcomer's clone of a repository whose committed .agentsync.json turns sync on; this user never agreed. */
  function newcomer(sync: Record<string, unknown>): string {
    const dir = path.join(tempWorkspace('sync-newcomer'), 'ws');
    git(path.dirname(dir), ['clone', '-q', server.url, 'ws']);
    fs.writeFileSync(path.join(dir, '.agentsync.json'), JSON.stringify({ sync }));
    return dir;
  }

  const remoteRefs = () => git(server.base, ['--git-dir', 'shared.git', 'for-each-ref', '--format=%(refname)']);

  it("a ref outside AgentSync's namespace (tag, code branch, note, remote-tracking) is a config error; nothing is pushed", () => {
    for (const ref of ['refs/tags/v9.9.9', 'refs/heads/release', 'refs/notes/x', 'refs/remotes/origin/main', 'refs/heads/main']) {
      const ws = newcomer({ remote: 'origin', ref });
      const enabled = cli(ws, ['sync', '--enable']);
      const made = cli(ws, ['request', '-'], create(`to ${ref}`));
      assert.equal(made.ok, false, `${ref}: ${JSON.stringify(made)}`);
      assert.equal(made.reason, 'CONFIG_INVALID', `${ref}: ${JSON.stringify(made)}`);
      assert.match(String(made.message), /refs\/agentsync\//);
      assert.equal(enabled.ok, false, `${ref}: --enable refuses a broken section too: ${JSON.stringify(enabled)}`);
    }
    assert.equal(remoteRefs(), '', 'nothing was pushed anywhere');
    // AgentSync's own namespaces are accepted.
    for (const ref of ['refs/agentsync/team', 'refs/heads/agentsync-state']) {
      const ws = newcomer({ remote: 'origin', ref });
      assert.equal(cli(ws, ['sync', '--enable']).ok, true);
      const made = cli(ws, ['request', '-'], create(`to ${ref}`));
      assert.equal(made.ok, true, `${ref}: ${JSON.stringify(made)}`);
    }
    assert.deepEqual(remoteRefs().split('\n').sort(), ['refs/agentsync/team', 'refs/heads/agentsync-state']);
  });

  it('until this clone consents, writes are refused sync_not_consented naming remote and ref; reads answer; --enable allows', () => {
    const seeded = server.clone('seeded');
    assert.equal(cli(seeded, ['request', '-'], create('shared before')).ok, true);
    const commits = server.remoteLog();
    const ws = newcomer({ remote: 'origin' });
    const made = cli(ws, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'pushed without a word']);
    assert.equal(made.ok, false, JSON.stringify(made));
    assert.equal(made.reason, 'sync_not_consented', JSON.stringify(made));
    assert.match(String(made.message), /refs\/agentsync\/state.*"origin".*agentsync sync --enable/s);
    assert.deepEqual(server.remoteLog(), commits, 'nothing pushed');
    assert.equal(storeBytes(ws), null, 'nothing written here');
    // `agentsync sync` pushes too: refused the same way. A read answers (from what this clone has), fresh or not.
    assert.equal(cli(ws, ['sync']).reason, 'sync_not_consented');
    for (const args of [['list'], ['--fresh', 'list']]) {
      const read = cli(ws, args);
      assert.equal(read.ok, true, JSON.stringify(read));
      assert.equal((read.data!.sync as { consented?: boolean }).consented, false);
    }
    const status = cli(ws, ['sync', '--status']);
    assert.equal(status.data!.consented, false);
    assert.match(runCliIn(ws, ['sync', '--status']).stdout, /NOT enabled on this machine/);
    // The consent is kept outside the repository: git sees no new file.
    assert.equal(cli(ws, ['sync', '--enable']).ok, true);
    assert.equal(git(ws, ['status', '--porcelain', '--ignored', '--untracked-files=all']).includes('consent'), false);
    const after = cli(ws, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'agreed']);
    assert.equal(after.ok, true, JSON.stringify(after));
    assert.equal((after.data!.sync as { confirmed: boolean }).confirmed, true);
    // A changed ref asks again.
    fs.writeFileSync(path.join(ws, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin', ref: 'refs/agentsync/other' } }));
    assert.equal(cli(ws, ['request', '-'], create('elsewhere')).reason, 'sync_not_consented');
    // --disable withdraws it.
    fs.writeFileSync(path.join(ws, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin' } }));
    assert.equal(cli(ws, ['sync', '--disable']).ok, true);
    assert.equal(cli(ws, ['request', '-'], create('withdrawn')).reason, 'sync_not_consented');
  });

  it('a sync.json pending entry that does not parse is dropped with a warning; writes go on', () => {
    const ws = server.clone('a', { remote: 'origin', offline: 'local' });
    assert.equal(cli(ws, ['request', '-'], create('first')).ok, true);
    // sync.json is this clone's own: in its home under the git common dir (docs/contract.md §14), never in the checkout.
    const file = path.join(ws, '.git', 'agentsync', '@', 'sync.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    state.pending = [
      { request_id: 'bad-1', action: 'claimHandoff', agent: null, handoff_id: null, request: 'not an object', applied_at: 'x' },
      { request_id: 7 },
      'junk',
      null,
    ];
    fs.writeFileSync(file, JSON.stringify(state));
    const r = runCliIn(ws, ['--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'after the bad entry']);
    const made = JSON.parse(r.stdout) as { ok: boolean; data?: { sync?: { confirmed?: boolean } } };
    assert.equal(made.ok, true, r.stdout + r.stderr);
    assert.equal(made.data!.sync!.confirmed, true);
    assert.match(r.stderr, /sync\.json: dropped 4 entries that do not parse/);
    assert.deepEqual((JSON.parse(fs.readFileSync(file, 'utf8')) as { pending: unknown[] }).pending, [], 'rewritten without them');
    const status = cli(ws, ['sync', '--status']);
    assert.equal(status.ok, true, JSON.stringify(status));
  });
});
