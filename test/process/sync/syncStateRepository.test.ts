// Where the shared state's objects live (docs/contract.md §13): AgentSync's own bare repository under the git common
// dir (`.git/agentsync/@state.git`). A clone's first sync fetches only the ref's last commit there (--depth=1), so
// its cost is one state's bytes, not the history's; the user's repository gets no state object, no private ref, and
// is never made shallow. The descent check still answers from real history: other clones' writes are followed, a
// ref forced back (even past the first fetch) is remote_rewound. A clone an earlier build synced (the private ref
// in the user's repository) moves it into the state repository with its whole history.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, create, git, gitServerPerTest, ids } from '../gitServer';

const REF = 'refs/agentsync/state';
const FETCHED = 'refs/agentsync-fetched/origin/agentsync/state';

describe("sync: AgentSync's own repository for the shared state", function () {
  this.timeout(180_000);
  const server = gitServerPerTest();
  const bare = () => path.join(server.base, 'shared.git');
  const stateRepo = (ws: string) => path.join(ws, '.git', 'agentsync', '@state.git');
  const inState = (ws: string, args: string[]) => git(ws, [`--git-dir=${stateRepo(ws)}`, ...args]);
  /** The refs of AgentSync's private namespaces in the user's own repository. */
  const privateRefs = (ws: string) => git(ws, ['for-each-ref', '--format=%(refname)', 'refs/agentsync-fetched', 'refs/agentsync-scratch']);

  it("a fresh clone's first sync fetches the last commit only, into its own repository; later writes and a rewind past that commit are answered", () => {
    const a = server.clone('a');
    for (let i = 0; i < 12; i++) assert.equal(cli(a, ['request', '-'], create(`history ${i}`)).ok, true);
    const tip = git(bare(), ['rev-parse', REF]);

    const b = server.clone('b');
    const synced = cli(b, ['sync']);
    assert.equal(synced.ok, true, JSON.stringify(synced));
    assert.deepEqual(ids(b), ids(a), 'the fresh clone sees the shared records');
    assert.equal(inState(b, ['rev-parse', FETCHED]), tip);
    assert.equal(inState(b, ['rev-list', '--count', FETCHED]), '1', 'one commit fetched, not the 12 of history');
    assert.equal(inState(b, ['rev-parse', '--is-shallow-repository']), 'true');
    assert.equal(git(b, ['rev-parse', '--is-shallow-repository']), 'false', "the user's clone is not made shallow");
    assert.equal(privateRefs(b), '', "no private ref in the user's repository");
    assert.throws(() => git(b, ['cat-file', '-e', `${tip}^{commit}`]), "the state's commit is not in the user's repository");
    const status = cli(b, ['sync', '--status']);
    assert.deepEqual(status.data!.objects, { repository: stateRepo(b), ref: FETCHED, shallow: true }, 'sync --status says where');

    // Its own write, another clone's, its own again: each decided on the remote's state, fetched into the shallow repository.
    assert.equal(cli(b, ['request', '-'], create('from b')).ok, true);
    assert.equal(cli(a, ['request', '-'], create('from a meanwhile')).ok, true);
    const later = cli(b, ['request', '-'], create('from b again'));
    assert.equal(later.ok, true, JSON.stringify(later));
    assert.equal(ids(b).length, 15);
    assert.equal(new Set(ids(b)).size, 15, 'no id given twice');
    assert.equal(inState(b, ['rev-parse', FETCHED]), git(bare(), ['rev-parse', REF]));

    // The ref forced back to a commit older than b's first fetch (one b never had): refused, nothing pushed.
    const last = git(bare(), ['rev-parse', REF]);
    const old = git(bare(), ['rev-parse', `${tip}~5`]);
    git(bare(), ['update-ref', REF, old]);
    const r = cli(b, ['--fresh', 'request', '-'], create('after the rewind'));
    assert.equal(r.reason, 'remote_rewound', JSON.stringify(r));
    assert.ok(String(r.message).includes(last), String(r.message));
    assert.equal(git(bare(), ['rev-parse', REF]), old, 'nothing pushed');
  });

  it('a symlinked state repository is refused (store_unsafe), never written through; nothing is pushed', () => {
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('seed')).ok, true);
    const head = git(bare(), ['rev-parse', REF]);
    const b = server.clone('b');
    const elsewhere = path.join(path.dirname(b), 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.mkdirSync(path.dirname(stateRepo(b)), { recursive: true });
    fs.symlinkSync(elsewhere, stateRepo(b));
    const r = cli(b, ['request', '-'], create('through the link'));
    assert.equal(r.reason, 'store_unsafe', JSON.stringify(r));
    assert.match(String(r.message), /@state\.git is not a folder \(it is a symlink\)/);
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing written where the link points');
    assert.equal(git(bare(), ['rev-parse', REF]), head, 'nothing pushed');
  });

  it("a clone an earlier build synced moves the state out of the user's repository with its history; a rewind is still caught", () => {
    // c writes first, so its state repository holds the whole history, as an earlier build's clone did.
    const c = server.clone('c');
    assert.equal(cli(c, ['request', '-'], create('first, from c')).ok, true);
    const a = server.clone('a');
    for (let i = 0; i < 4; i++) assert.equal(cli(a, ['request', '-'], create(`early ${i}`)).ok, true);
    assert.equal(cli(c, ['sync']).ok, true);
    assert.equal(inState(c, ['rev-parse', '--is-shallow-repository']), 'false');
    // What an earlier build left: the fetched ref (and its history) in the user's repository, no state repository.
    git(c, ['fetch', '-q', stateRepo(c), `+${FETCHED}:${FETCHED}`]);
    fs.rmSync(stateRepo(c), { recursive: true, force: true });
    const adopted = git(c, ['rev-parse', FETCHED]);

    const w = cli(c, ['request', '-'], create('after the upgrade'));
    assert.equal(w.ok, true, JSON.stringify(w));
    assert.equal(privateRefs(c), '', "the old private ref is gone from the user's repository");
    assert.equal(inState(c, ['rev-parse', '--is-shallow-repository']), 'false', 'the history came over whole');
    assert.equal(inState(c, ['rev-parse', `${FETCHED}~1`]), adopted, 'its write went on top of what it had adopted');
    assert.equal(inState(c, ['rev-list', '--count', FETCHED]), git(bare(), ['rev-list', '--count', REF]));

    // No state repository and no old ref, but sync.json remembers a commit: the fetch brings the whole history, so the
    // descent check can tell a rewind from a write.
    fs.rmSync(stateRepo(c), { recursive: true, force: true });
    const last = git(bare(), ['rev-parse', REF]);
    git(bare(), ['update-ref', REF, `${last}~2`]);
    const r = cli(c, ['--fresh', 'request', '-'], create('after the rewind'));
    assert.equal(r.reason, 'remote_rewound', JSON.stringify(r));
    assert.ok(String(r.message).includes(last), String(r.message));
    assert.equal(inState(c, ['rev-parse', '--is-shallow-repository']), 'false');
  });
});
