// Sync in a shallow clone (`git clone --depth=1`, common in CI and for large repositories; docs/contract.md §13): the
// shared state's objects live in AgentSync's own repository under the git common dir, and the rewind check (does the
// remote's ref still hold the commit this clone last had?) answers from real history: another clone's writes are
// followed, a ref forced back is remote_rewound. AgentSync never deepens nor otherwise changes the user's code history.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, create, git, gitServerPerTest, ids, storeBytes } from '../gitServer';
import { tempWorkspace } from '../processHarness';

const REF = 'refs/agentsync/state';

describe('sync: a shallow clone', function () {
  this.timeout(120_000);
  const server = gitServerPerTest();
  const bare = () => path.join(server.base, 'shared.git');

  /** Five commits of code on main in the served repository, so that a --depth=1 clone really is shallow. */
  function codeHistory(): void {
    const src = path.join(tempWorkspace('sync-code'), 'src');
    fs.mkdirSync(src);
    git(src, ['init', '-q', '-b', 'main']);
    for (let i = 0; i < 5; i++) {
      fs.writeFileSync(path.join(src, 'app.txt'), `version ${i}\n`);
      git(src, ['add', 'app.txt']);
      git(src, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', `code ${i}`]);
    }
    git(src, ['push', '-q', server.url, 'main']);
    git(bare(), ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  }

  it("follows other clones' writes, refuses a ref forced back (remote_rewound), and leaves the clone's own shallow history as it was", () => {
    codeHistory();
    const a = server.clone('a');
    assert.equal(cli(a, ['request', '-'], create('seed')).ok, true);
    assert.equal(cli(a, ['request', '-'], create('second')).ok, true);

    const s = server.clone('shallow', { remote: 'origin' }, ['--depth=1']);
    assert.equal(git(s, ['rev-parse', '--is-shallow-repository']), 'true');
    const shallowFile = fs.readFileSync(path.join(s, '.git', 'shallow'), 'utf8');
    const synced = cli(s, ['sync']);
    assert.equal(synced.ok, true, JSON.stringify(synced));
    assert.deepEqual(ids(s), ids(a), 'the shallow clone sees the shared records');

    // Its own write, then another clone's, then its own on top: each decided on the remote's state.
    const mine = cli(s, ['request', '-'], create('from the shallow clone'));
    assert.equal(mine.ok, true, JSON.stringify(mine));
    assert.equal(cli(a, ['request', '-'], create('from a meanwhile')).ok, true);
    const seen = git(bare(), ['rev-parse', REF]);
    const later = cli(s, ['request', '-'], create('shallow again'));
    assert.equal(later.ok, true, JSON.stringify(later));
    assert.equal(ids(s).length, 5);
    assert.equal(new Set(ids(s)).size, 5, 'no id given twice');
    assert.equal(git(bare(), ['rev-parse', `${REF}~1`]), seen, "its write went on top of a's");

    // The ref forced back past what the shallow clone last had: refused, nothing pushed, nothing changed here.
    const last = git(bare(), ['rev-parse', REF]);
    git(bare(), ['update-ref', REF, seen]);
    const before = storeBytes(s);
    const r = cli(s, ['request', '-'], create('after the rewind'));
    assert.equal(r.reason, 'remote_rewound', JSON.stringify(r));
    assert.ok(String(r.message).includes(last), String(r.message));
    assert.equal(git(bare(), ['rev-parse', REF]), seen, 'nothing pushed');
    assert.deepEqual(storeBytes(s), before);

    assert.equal(git(s, ['rev-parse', '--is-shallow-repository']), 'true');
    assert.equal(fs.readFileSync(path.join(s, '.git', 'shallow'), 'utf8'), shallowFile, 'the code history stays as shallow as cloned');
    assert.equal(git(s, ['rev-list', '--count', 'HEAD']), '1');
  });
});
