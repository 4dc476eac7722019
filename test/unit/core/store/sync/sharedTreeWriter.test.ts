// Format 2's writer (src/core/store/sync/sharedTreeWriter.ts): one blob per record under three levels of fan-out,
// and a write that adds only the changed blob and the trees on its path. Real git in a temp repository.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ledgerPath, parsePath, recordPath } from '../../../../../src/core/store/sync/sharedTreeLayout';
import { writeSharedCommit, type TreeChange } from '../../../../../src/core/store/sync/sharedTreeWriter';

const git = (cwd: string, ...args: string[]): string => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A ULID-shaped uid whose last characters are random, as a ULID's are (deterministic from i). */
function uid(i: number): string {
  const h = createHash('sha256').update(String(i)).digest();
  return `01M8H${[...h.subarray(0, 21)].map((b) => CROCKFORD[b % 32]).join('')}`;
}

describe('shared tree formats: layout and incremental writer (git fast-import)', function () {
  this.timeout(120_000);
  let repo = '';
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-fmt2-'));
    git(repo, 'init', '-q', '--bare');
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  it('paths fan out one character a level and parse back; a foreign path does not parse', () => {
    const u = '01M8HKRA1G0A7X5ZR7B28PE66M';
    assert.equal(recordPath('records', u, 3), `records/M/6/6/${u}.json`);
    assert.equal(recordPath('records', u, 2), `records/M/6/6/${u}.json`);
    // The archive: three levels in format 2, two in format 3 (fewer trees for the server's connectivity check to walk).
    assert.equal(recordPath('archive', u, 2), `archive/M/6/6/${u}.json`);
    assert.equal(recordPath('archive', u, 3), `archive/M/6/${u}.json`);
    assert.deepEqual(parsePath(recordPath('records', u, 3)), { area: 'records', key: u });
    assert.match(ledgerPath('req-1'), /^ledger\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]\/[0-9a-f]{40}\.json$/);
    assert.equal(parsePath('records/x/6/6/01M8HKRA1G0A7X5ZR7B28PE66M.json'), null);
    assert.equal(parsePath('handoffs.json'), null);
    assert.throws(() => recordPath('records', '../../etc', 3));
    assert.throws(() => recordPath('archive', 'a/b/c', 3));
  });

  it('a write over 5,000 records adds one blob, the trees on its path and the commit: a few KB, not the state', () => {
    const changes: TreeChange[] = [];
    for (let i = 0; i < 5000; i++) changes.push({ path: recordPath('records', uid(i), 3), data: JSON.stringify({ uid: uid(i), rev: 1 }) });
    changes.push({ path: 'format', data: '2\n' });
    const first = writeSharedCommit(repo, { scratchRef: 'refs/agentsync-scratch/t', parent: null, message: 'seed', changes, when: 1 });
    assert.equal(git(repo, 'ls-tree', '-r', '--name-only', first).split('\n').length, 5001);
    const before = new Set(
      git(repo, 'rev-list', '--objects', '--all')
        .split('\n')
        .map((l) => l.split(' ')[0]),
    );
    const changed = recordPath('records', uid(42), 3);
    const gone = recordPath('records', uid(7), 3);
    const second = writeSharedCommit(repo, {
      scratchRef: 'refs/agentsync-scratch/t',
      parent: first,
      message: 'claim',
      changes: [
        { path: changed, data: JSON.stringify({ uid: uid(42), rev: 2 }) },
        { path: gone, data: null },
      ],
      when: 2,
    });
    assert.equal(git(repo, 'rev-parse', `${second}^`), first);
    assert.deepEqual(
      git(repo, 'diff-tree', '-r', '--name-only', '--no-commit-id', first, second).split('\n').sort(),
      [changed, gone].sort(),
    );
    assert.equal(git(repo, 'show', `${second}:${changed}`), JSON.stringify({ uid: uid(42), rev: 2 }));
    const added = git(repo, 'rev-list', '--objects', '--all')
      .split('\n')
      .map((l) => l.split(' ')[0])
      .filter((o) => !before.has(o));
    // the commit, one blob, and at most two paths' trees (root, records/, three levels each)
    assert.ok(added.length <= 1 + 1 + 1 + 1 + 3 * 2, `${added.length} new objects`);
    const bytes = added.reduce((n, o) => n + Number(git(repo, 'cat-file', '-s', o)), 0);
    assert.ok(bytes < 16 * 1024, `${bytes} bytes of new objects (uncompressed)`);
  });

  it('a move by object id (the upgrade to format 3) writes no blob: the archive is re-laid out, its bytes not sent again', () => {
    const changes: TreeChange[] = [];
    for (let i = 0; i < 300; i++) changes.push({ path: recordPath('archive', uid(i), 2), data: JSON.stringify({ uid: uid(i) }) });
    const first = writeSharedCommit(repo, { scratchRef: 'refs/agentsync-scratch/t', parent: null, message: 'f2', changes, when: 1 });
    const entries = git(repo, 'ls-tree', '-r', first)
      .split('\n')
      .map((l) => /^100644 blob ([0-9a-f]+)\t(.*)$/.exec(l)!);
    const blobsBefore = git(repo, 'rev-list', '--objects', '--all').split('\n').length;
    const moves: TreeChange[] = [{ path: 'archive', data: null }];
    for (const [, oid, p] of entries) moves.push({ path: recordPath('archive', p.slice(-31, -5), 3), oid });
    const second = writeSharedCommit(repo, {
      scratchRef: 'refs/agentsync-scratch/t',
      parent: first,
      message: 'f3',
      changes: moves,
      when: 2,
    });
    const after = git(repo, 'ls-tree', '-r', second).split('\n');
    assert.equal(after.length, 300);
    assert.ok(
      after.every((l) => /\tarchive\/\w\/\w\/\w{26}\.json$/.test(l)),
      after[0],
    );
    assert.equal(git(repo, 'show', `${second}:${recordPath('archive', uid(5), 3)}`), JSON.stringify({ uid: uid(5) }));
    const added = git(repo, 'rev-list', '--objects', '--all').split('\n').length - blobsBefore;
    const blobs = git(repo, 'cat-file', '--batch-all-objects', '--batch-check')
      .split('\n')
      .filter((l) => l.split(' ')[1] === 'blob').length;
    assert.equal(blobs, 300, 'the same 300 blobs, none written again');
    assert.ok(added > 0, 'new trees and a commit');
    assert.throws(
      () =>
        writeSharedCommit(repo, {
          scratchRef: 'refs/agentsync-scratch/t',
          parent: second,
          message: 'x',
          changes: [{ path: 'a', oid: 'HEAD' }],
          when: 3,
        }),
      /not an object id/,
    );
  });
});
