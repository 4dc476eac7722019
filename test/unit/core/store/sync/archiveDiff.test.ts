// archivedSince (src/core/store/sync/archiveDiff.ts) against real git: it names exactly the archived records one commit
// adds over another, reading only the trees that differ, and nothing when the earlier commit is in another format.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { archivedSince } from '../../../../../src/core/store/sync/archiveDiff';
import { recordPath } from '../../../../../src/core/store/sync/sharedTreeLayout';
import { writeSharedCommit, type TreeChange } from '../../../../../src/core/store/sync/sharedTreeWriter';
import { GitObjectSession } from '../../../../../src/core/git/gitObjectSession';
import { git } from '../../../helpers/realGit';

/** A ULID-shaped uid, its last characters varied (deterministic from i). */
const uid = (i: number) =>
  `01M8HKRA1G0A7X5ZR7B28P${(i * 7919)
    .toString(32)
    .toUpperCase()
    .padStart(4, '0')
    .replace(/[ILOU]/g, 'Z')}`;

describe('archivedSince: what a shared state archived since an earlier commit', function () {
  this.timeout(60_000);
  let repo = '';
  let session: GitObjectSession;
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-archdiff-'));
    git(repo, 'init', '-q', '--bare');
    session = new GitObjectSession(repo);
  });
  afterEach(() => {
    session.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });
  const commit = (parent: string | null, format: 2 | 3, uids: number[], when: number) => {
    const changes: TreeChange[] = [{ path: 'format', data: `${format}\n` }];
    for (const i of uids) changes.push({ path: recordPath('archive', uid(i), format), data: JSON.stringify({ uid: uid(i) }) });
    return writeSharedCommit(repo, { scratchRef: 'refs/agentsync-scratch/t', parent, message: 'm', changes, when });
  };

  it('names the records added since, and only those; none when nothing was archived in between', async () => {
    const first = commit(null, 3, [...Array(200).keys()], 1);
    const second = commit(first, 3, [500, 501, 502], 2);
    assert.deepEqual((await archivedSince(session, first, second, 3)).sort(), [uid(500), uid(501), uid(502)].sort());
    assert.deepEqual(await archivedSince(session, second, second, 3), []);
    const third = commit(second, 3, [], 3);
    assert.deepEqual(await archivedSince(session, second, third, 3), []);
  });

  it('answers nothing when the earlier commit is in another format (an upgrade lay between them)', async () => {
    const old = commit(null, 2, [1, 2, 3], 1);
    const changes: TreeChange[] = [
      { path: 'archive', data: null },
      { path: 'format', data: '3\n' },
    ];
    for (const i of [1, 2, 3, 4]) changes.push({ path: recordPath('archive', uid(i), 3), data: JSON.stringify({ uid: uid(i) }) });
    const upgraded = writeSharedCommit(repo, { scratchRef: 'refs/agentsync-scratch/t', parent: old, message: 'up', changes, when: 2 });
    assert.deepEqual(await archivedSince(session, old, upgraded, 3), []);
  });
});
