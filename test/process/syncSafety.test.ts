// Sync mode against a shared ref that is not what this clone last saw (docs/contract.md §13): a code commit, a blob,
// a tree without handoffs.json, a ref deleted or rewound on the server. Each is refused, nothing written, nothing
// pushed. Real git daemon on 127.0.0.1, real processes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, create, git, gitServerPerTest, storeBytes } from './gitServer';
import { runCliIn } from './processHarness';

const ID = ['-c', 'user.name=t', '-c', 'user.email=t@t'];

describe('sync refuses a shared ref that does not hold the shared state, or went back (git daemon on 127.0.0.1)', function () {
  this.timeout(120_000);
  let bare: string;
  const server = gitServerPerTest();
  beforeEach(() => {
    bare = path.join(server.base, 'shared.git');
  });

  /** A clone with a code commit on main, pushed; sync configured as given. */
  function codeClone(name: string, sync: Record<string, unknown>, branch = 'main'): string {
    const ws = server.clone(name, sync);
    git(ws, ['checkout', '-q', '-b', branch]);
    fs.writeFileSync(path.join(ws, 'app.c'), 'important code\n');
    git(ws, ['add', 'app.c', '.agentsync.json']);
    git(ws, [...ID, 'commit', '-qm', 'code']);
    git(ws, ['push', '-q', '-u', 'origin', branch]);
    return ws;
  }

  const remoteTree = (ref: string) => git(bare, ['ls-tree', '--name-only', ref]).split('\n');
  const remoteHead = (ref = 'refs/agentsync/state') => git(bare, ['rev-parse', ref]);

  it('sync.ref naming the checked-out branch is invalid_config; the branch on the server keeps its files', () => {
    const a = codeClone('a', { remote: 'origin', ref: 'refs/heads/agentsync-work' }, 'agentsync-work');
    const before = remoteHead('refs/heads/agentsync-work');
    const made = cli(a, ['request', '-'], create('would wipe the branch'));
    assert.equal(made.ok, false, JSON.stringify(made));
    assert.equal(made.reason, 'invalid_config', JSON.stringify(made));
    assert.match(String(made.message), /refs\/heads\/agentsync-work.*checked out.*refs\/agentsync\/state/s);
    assert.equal(remoteHead('refs/heads/agentsync-work'), before);
    assert.ok(remoteTree('agentsync-work').includes('app.c'));
  });

  it('a code commit on the shared ref is store_invalid naming ref and commit, not an empty state; nothing pushed', () => {
    const a = codeClone('a', { remote: 'origin' });
    assert.equal(cli(a, ['request', '-'], create('existing work')).ok, true);
    const stateBefore = storeBytes(a);
    // Someone pushes the code branch to the shared ref by mistake.
    git(a, ['push', '-q', '--force', 'origin', 'main:refs/agentsync/state']);
    const wrong = remoteHead();
    for (const args of [['request', '-'], ['sync']]) {
      const r = cli(a, args, create('after the mistake'));
      assert.equal(r.ok, false, JSON.stringify(r));
      assert.equal(r.reason, 'store_invalid', JSON.stringify(r));
      assert.ok(String(r.message).includes(`refs/agentsync/state`) && String(r.message).includes(wrong), String(r.message));
      assert.match(String(r.message), /app\.c|\.agentsync\.json/);
      assert.match(String(r.message), /git push --force origin <good-commit>:refs\/agentsync\/state/);
    }
    assert.equal(remoteHead(), wrong, 'nothing pushed');
    assert.deepEqual(storeBytes(a), stateBefore, 'nothing changed here');
  });

  it('a shared-state commit without handoffs.json is store_invalid; a ref naming a blob is store_invalid at once, not remote_busy', () => {
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('existing work')).ok, true);
    const good = remoteHead();
    const stateBefore = storeBytes(a);
    const ledger = git(bare, ['rev-parse', `${good}:ledger.jsonl`]);
    const tree = git(bare, ['mktree'], `100644 blob ${ledger}\tledger.jsonl\n`);
    const noState = git(bare, [...ID, 'commit-tree', tree, '-p', good, '-m', 'no handoffs.json']);
    git(bare, ['update-ref', 'refs/agentsync/state', noState]);
    const r = cli(a, ['request', '-'], create('after'));
    assert.equal(r.reason, 'store_invalid', JSON.stringify(r));
    assert.match(String(r.message), /no handoffs\.json/);
    assert.equal(remoteHead(), noState);

    const blob = git(bare, ['hash-object', '-w', '--stdin'], '{not json');
    git(bare, ['update-ref', 'refs/agentsync/state', blob]);
    const b = cli(a, ['request', '-'], create('after the blob'));
    assert.equal(b.reason, 'store_invalid', JSON.stringify(b));
    assert.match(String(b.message), /names a blob, not a commit/);
    assert.equal(remoteHead(), blob);
    assert.deepEqual(storeBytes(a), stateBefore);
  });

  it('the shared ref deleted on the server: remote_rewound naming the last commit, nothing re-seeded; pushing it back restores', () => {
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('seed')).ok, true);
    const b = server.clone('b');
    assert.equal(cli(b, ['request', '-'], create('confirmed on b')).ok, true);
    const last = remoteHead();
    assert.equal(cli(a, ['sync']).ok, true, 'a has the commit and, having written first, its whole history');
    git(bare, ['update-ref', '-d', 'refs/agentsync/state']);
    const before = storeBytes(b);
    const r = cli(b, ['request', '-'], create('after the delete'));
    assert.equal(r.reason, 'remote_rewound', JSON.stringify(r));
    // The commit is in the clone's state repository (docs/contract.md §13), and the message says to push it from there;
    // b's first sync fetched the last commit only, so the message also says where the history is, which the push needs.
    const restore = `git --git-dir=${path.join(b, '.git', 'agentsync', '@state.git')} push --force origin ${last}:refs/agentsync/state`;
    assert.ok(String(r.message).includes(restore), String(r.message));
    assert.match(String(r.message), /shallow update not allowed.*whole history/, String(r.message));
    assert.equal(git(bare, ['for-each-ref', 'refs/agentsync']), '', 'nothing pushed');
    assert.deepEqual(storeBytes(b), before);
    git(a, [`--git-dir=${path.join(a, '.git', 'agentsync', '@state.git')}`, 'push', '-q', 'origin', `${last}:refs/agentsync/state`]);
    const again = cli(b, ['request', '-'], create('after the restore'));
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.equal(again.data!.handoff!.handoff_id.endsWith('-003'), true, 'no id given twice');
  });

  it('the shared ref forced back to an older commit: remote_rewound on the clone that saw the newer one, nothing pushed', () => {
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('seed')).ok, true);
    const old = remoteHead();
    const b = server.clone('b');
    assert.equal(cli(b, ['request', '-'], create('confirmed on b')).ok, true);
    const newer = remoteHead();
    git(bare, ['update-ref', 'refs/agentsync/state', old]);
    const before = storeBytes(b);
    for (const args of [['request', '-'], ['sync'], ['--fresh', 'list']]) {
      const r = cli(b, args, create('after the rewind'));
      assert.equal(r.reason, 'remote_rewound', `${args.join(' ')}: ${JSON.stringify(r)}`);
      assert.ok(String(r.message).includes(old) && String(r.message).includes(newer), String(r.message));
    }
    assert.equal(remoteHead(), old, 'nothing pushed');
    assert.deepEqual(storeBytes(b), before);
  });

  it('offline "local": an id given offline that another clone took meanwhile is renumbered; later offline writes follow it', async () => {
    const a = server.clone('a', { remote: 'origin', offline: 'local' });
    const b = server.clone('b', { remote: 'origin', offline: 'local' });
    assert.equal(cli(a, ['request', '-'], create('seed')).ok, true);
    cli(b, ['sync']);
    await server.stop();
    const made = cli(a, ['request', '-'], create('a offline work'));
    const offline = made.data!.handoff! as unknown as { handoff_id: string; uid: string; created_at: string };
    assert.equal(cli(a, ['claim', offline.handoff_id, '--agent', 'claude']).ok, true);
    await server.start();
    const theirs = cli(b, ['request', '-'], create('b online work')).data!.handoff!;
    assert.equal(theirs.handoff_id, offline.handoff_id, 'the same id on two clones: the case to solve');
    const synced = cli(a, ['sync']);
    assert.equal(synced.ok, true, JSON.stringify(synced));
    const records = (JSON.parse(storeBytes(a)!.toString()) as { handoffs: Record<string, unknown>[] }).handoffs;
    const other = records.find((h) => h.summary === 'b online work')!;
    const mine = records.find((h) => h.summary === 'a offline work')!;
    // The offline claim acted on the renumbered record, never on b's handoff.
    assert.equal(other.claimed_by ?? null, null, `b's handoff untouched: ${JSON.stringify(other)}`);
    assert.equal(other.handoff_id, offline.handoff_id);
    assert.equal(mine.claimed_by, 'claude');
    assert.notEqual(mine.handoff_id, offline.handoff_id);
    assert.equal(mine.uid, offline.uid, 'the replayed record keeps its uid');
    assert.deepEqual(synced.data!.renumbered, [{ from: offline.handoff_id, to: mine.handoff_id, uid: offline.uid }]);
    assert.deepEqual(mine.previous_ids, [offline.handoff_id]);
    assert.equal(mine.created_at, offline.created_at);
    // The agent holding the old id is told, not answered about b's handoff.
    const done = cli(a, ['complete', offline.handoff_id, '--agent', 'claude']);
    assert.equal(done.reason, 'id_moved', JSON.stringify(done));
    assert.ok(String(done.message).includes(String(mine.handoff_id)), String(done.message));
    const text = runCliIn(a, ['sync', '--status']).stdout + runCliIn(a, ['sync']).stdout;
    assert.doesNotMatch(text, /renumbered/, 'told once, by the sync that renumbered');
    cli(b, ['sync']);
    assert.deepEqual(storeBytes(a), storeBytes(b));
  });

  it('a record merged in from a branch after the first contact joins the shared state; one the remote removed does not come back', () => {
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('first with sync')).ok, true);
    assert.equal(cli(a, ['request', '-'], create('removed on the remote')).ok, true);
    // A record made where sync was off (a branch), brought into this clone's handoffs.json as a git merge would.
    const side = server.clone('side', {});
    fs.writeFileSync(path.join(side, '.agentsync.json'), '{}');
    assert.equal(cli(side, ['request', '-'], create('on the feature branch')).ok, true);
    const branchRecord = (JSON.parse(storeBytes(side)!.toString()) as { handoffs: Record<string, unknown>[] }).handoffs[0];
    // The merge driver keeps ids unique in this clone: the branch's record comes in as the next id here...
    const day = String(branchRecord.handoff_id).slice(0, -3);
    branchRecord.handoff_id = `${day}003`;
    // ...which another clone's write gave to its own handoff in the shared state meanwhile.
    const b = server.clone('b');
    assert.equal(cli(b, ['request', '-'], create('by b')).data!.handoff!.handoff_id, `${day}003`);
    const file = path.join(a, '.agentsync', 'handoffs.json');
    const local = JSON.parse(fs.readFileSync(file, 'utf8')) as { handoffs: Record<string, unknown>[] };
    local.handoffs.push(branchRecord);
    fs.writeFileSync(file, JSON.stringify(local, null, 2) + '\n');
    // Meanwhile the shared state dropped a record (as an archive pass elsewhere would): a commit on top of the head.
    const head = remoteHead();
    const shared = JSON.parse(git(bare, ['show', `${head}:handoffs.json`])) as { handoffs: { summary: string }[] };
    shared.handoffs = shared.handoffs.filter((h) => h.summary !== 'removed on the remote');
    const blob = git(bare, ['hash-object', '-w', '--stdin'], JSON.stringify(shared, null, 2) + '\n');
    const ledger = git(bare, ['rev-parse', `${head}:ledger.jsonl`]);
    const tree = git(bare, ['mktree'], `100644 blob ${blob}\thandoffs.json\n100644 blob ${ledger}\tledger.jsonl\n`);
    git(bare, ['update-ref', 'refs/agentsync/state', git(bare, [...ID, 'commit-tree', tree, '-p', head, '-m', 'removed one'])]);

    const next = cli(a, ['request', '-'], create('next'));
    assert.equal(next.ok, true, JSON.stringify(next));
    const summaries = (
      JSON.parse(git(bare, ['show', 'refs/agentsync/state:handoffs.json'])) as { handoffs: { summary: string }[] }
    ).handoffs
      .map((h) => h.summary)
      .sort();
    assert.deepEqual(summaries, ['by b', 'first with sync', 'next', 'on the feature branch']);
    const joined = (JSON.parse(storeBytes(a)!.toString()) as { handoffs: Record<string, unknown>[] }).handoffs.find(
      (h) => h.summary === 'on the feature branch',
    )!;
    assert.equal(joined.uid, branchRecord.uid);
    // Its id was taken in the shared state: renumbered, the old id kept in previous_ids and refused id_moved here.
    assert.deepEqual(joined.previous_ids, [branchRecord.handoff_id]);
    const done = cli(a, ['complete', String(branchRecord.handoff_id), '--agent', 'claude']);
    assert.equal(done.reason, 'id_moved', JSON.stringify(done));
  });

  it('turning sync on: a record renumbered when it joins keeps previous_ids, and its old id is id_moved in that clone', () => {
    const a = server.clone('a');
    const b = server.clone('b', {});
    fs.writeFileSync(path.join(b, '.agentsync.json'), '{}');
    const mine = cli(b, ['request', '-'], create('b before sync')).data!.handoff!;
    assert.equal(cli(b, ['claim', mine.handoff_id, '--agent', 'claude']).ok, true);
    assert.equal(cli(a, ['request', '-'], create('seeded by a')).data!.handoff!.handoff_id, mine.handoff_id);
    fs.writeFileSync(path.join(b, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin' } }));
    const synced = cli(b, ['sync']);
    assert.equal(synced.ok, true, JSON.stringify(synced));
    const records = (JSON.parse(storeBytes(b)!.toString()) as { handoffs: Record<string, unknown>[] }).handoffs;
    const moved = records.find((h) => h.summary === 'b before sync')!;
    assert.notEqual(moved.handoff_id, mine.handoff_id);
    assert.deepEqual(moved.previous_ids, [mine.handoff_id]);
    assert.deepEqual(synced.data!.renumbered, [{ from: mine.handoff_id, to: moved.handoff_id, uid: moved.uid }]);
    const done = cli(b, ['complete', mine.handoff_id, '--agent', 'claude']);
    assert.equal(done.reason, 'id_moved', JSON.stringify(done));
    assert.equal(records.find((h) => h.summary === 'seeded by a')!.status, 'queued', "a's handoff untouched");
  });
});
