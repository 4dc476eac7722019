// The archive in sync mode (docs/contract.md §13a): in a shared tree format (3) a write moves finished records from records/
// to archive/ in its own commit, so under the push's compare-and-swap; a record joins by uid, never twice (a clone
// that held it open, a clone killed between its push and its local write, a clone whose own archive already had it).
// And the rewind check still holds when the ref is forced back and then written past its old length.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli, cliAsync, git, gitServerPerTest, localArchive, openRecords, storeBytes, type SyncedRecord } from '../gitServer';
import { CLI } from '../processHarness';
import { loadFormatFixture, REF } from './formatFixtures';

const OLD = 'finished a month ago';

const find = (ws: string, summary: string) => openRecords(ws).find((h) => h.summary === summary);

describe('sync: the archive in the shared tree format', function () {
  this.timeout(240_000);
  const server = gitServerPerTest();
  const bare = () => path.join(server.base, 'shared.git');
  const files = (area: string) =>
    git(bare(), ['ls-tree', '-r', '--name-only', REF])
      .split('\n')
      .filter((f) => f.startsWith(`${area}/`));
  /** Two clones of the fixture's state (format 1, made by 0.4.0) upgraded to the newest format. */
  function upgraded(): { a: string; b: string; old: SyncedRecord } {
    loadFormatFixture(bare(), 1);
    const a = server.clone('a');
    assert.equal(cli(a, ['sync', '--upgrade-format']).data!.format_upgrade, 'written');
    const b = server.clone('b');
    assert.equal(cli(b, ['sync']).ok, true);
    const old = find(b, OLD)!;
    assert.equal(old.status, 'merged', 'clone B holds the month-old merged record open');
    return { a, b, old };
  }

  it('two clones write at once, both seeing a record due: it is archived once, and the clone that held it open does not bring it back', async () => {
    const { a, b, old } = upgraded();
    const [x, y] = [find(a, 'open and claimed')!, find(a, 'created with a request id')!];
    const [ra, rb] = await Promise.all([
      cliAsync(a, ['release', x.handoff_id, '--agent', 'claude']),
      cliAsync(b, ['claim', y.handoff_id, '--agent', 'codex']),
    ]);
    assert.equal(ra.ok, true, JSON.stringify(ra));
    assert.equal(rb.ok, true, JSON.stringify(rb));
    assert.equal(files('archive').length, 1, 'archived once');
    assert.ok(files('archive')[0].endsWith(`${old.uid}.json`));
    assert.equal(files('records').length, 2, 'not brought back to the open records by the clone that held it');
    // A move of it from a view that still has it open is refused and pushes nothing: a finished record has no legal
    // move (merged is terminal), which is also why no write can race its archiving but another archive pass.
    const revise = cli(b, ['revise', old.handoff_id, '--agent', 'human']);
    assert.equal(revise.reason, 'illegal_transition', JSON.stringify(revise));
    assert.equal(files('records').length, 2);
    for (const ws of [a, b]) {
      assert.equal(cli(ws, ['sync']).ok, true);
      assert.equal(find(ws, OLD), undefined);
      assert.deepEqual(
        localArchive(ws)
          .filter((h) => h.uid === old.uid)
          .map((h) => h.status),
        ['merged'],
        `${ws}: once in its own archive`,
      );
      assert.equal((cli(ws, ['show', old.handoff_id]).data!.handoff as unknown as SyncedRecord).status, 'merged');
    }
    assert.deepEqual(storeBytes(a), storeBytes(b));
  });

  it('killed between the push that archived a record and its local write: the next sync archives it here once, not twice', () => {
    const { a, old } = upgraded();
    const y = find(a, 'created with a request id')!;
    const killed = spawnSync(process.execPath, [CLI, '--dir', a, '--json', 'claim', y.handoff_id, '--agent', 'codex'], {
      encoding: 'utf8',
      env: { ...process.env, AGENTSYNC_TEST_CRASH_AFTER_PUSH: '1' },
    });
    assert.equal(killed.signal, 'SIGKILL');
    assert.equal(files('archive').length, 1, 'the push landed: archived there');
    assert.ok(find(a, OLD), 'not yet here: killed before the local write');
    for (let i = 0; i < 2; i++) assert.equal(cli(a, ['sync']).ok, true);
    assert.equal(find(a, OLD), undefined);
    assert.equal(localArchive(a).filter((h) => h.uid === old.uid).length, 1);
    assert.equal(files('archive').length, 1);
    assert.equal(files('records').length, 2);
  });

  it('records archived in a clone before sync join the shared archive once: at the upgrade, and not again from another clone', () => {
    const a = server.clone('a', { remote: 'origin' });
    // Sync off while the history is made: the local archive pass moves the month-old merged record to archive/.
    fs.writeFileSync(path.join(a, '.agentsync.json'), '{}');
    const offset = { ...process.env, AGENTSYNC_TEST_CLOCK_OFFSET_MS: String(-30 * 86_400_000) };
    const run = (args: string[], env = process.env) => {
      const r = spawnSync(process.execPath, [CLI, '--dir', a, '--json', ...args], { encoding: 'utf8', env });
      return JSON.parse(r.stdout) as { ok: boolean; data?: { handoff?: { handoff_id: string } } };
    };
    const id = run(['create', '--from', 'codex', '--to', 'claude', '--summary', OLD], offset).data!.handoff!.handoff_id;
    const steps = [
      ['claim', id, '--agent', 'claude'],
      ['complete', id, '--agent', 'claude'],
      ['approve', id, '--agent', 'human'],
    ];
    for (const step of [...steps, ['merge', id, '--agent', 'human']]) assert.equal(run(step, offset).ok, true, step.join(' '));
    assert.equal(run(['create', '--from', 'codex', '--to', 'claude', '--summary', 'open']).ok, true);
    assert.equal(localArchive(a).length, 1, 'archived locally before sync');
    const archiveDir = path.join(a, '.agentsync', 'archive');
    const month = fs.readdirSync(archiveDir)[0];
    fs.writeFileSync(path.join(a, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin' } }));
    assert.equal(cli(a, ['sync']).ok, true, 'the first contact seeds the shared state in format 1');
    assert.equal(cli(a, ['sync', '--upgrade-format']).data!.format_upgrade, 'written');
    assert.equal(files('archive').length, 1, 'joined at the upgrade');
    // Another clone whose own archive holds the same record (a pulled archive file) makes its first contact.
    const b = server.clone('b');
    fs.mkdirSync(path.join(b, '.agentsync', 'archive'), { recursive: true });
    fs.copyFileSync(path.join(archiveDir, month), path.join(b, '.agentsync', 'archive', month));
    const made = cli(b, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'from b']);
    assert.equal(made.ok, true, JSON.stringify(made));
    assert.equal(files('archive').length, 1, 'not twice');
    assert.equal(files('records').length, 2);
    assert.equal(localArchive(b).length, 1);
  });

  it('the ref forced back and then written past its old length is still remote_rewound: descent is checked, not a count', () => {
    const { a } = upgraded();
    const x = find(a, 'open and claimed')!;
    assert.equal(cli(a, ['release', x.handoff_id, '--agent', 'claude']).ok, true);
    const seen = git(bare(), ['rev-parse', REF]);
    const length = Number(git(bare(), ['rev-list', '--count', REF]));
    // Forced back two commits, then written on by another clone until the ref is longer than what clone A adopted.
    git(bare(), ['update-ref', REF, `${seen}~2`]);
    const c = server.clone('c');
    for (let i = 0; Number(git(bare(), ['rev-list', '--count', REF])) <= length; i++)
      assert.equal(cli(c, ['create', '--from', 'codex', '--to', 'claude', '--summary', `past it ${i}`]).ok, true);
    const head = git(bare(), ['rev-parse', REF]);
    const before = storeBytes(a);
    const r = cli(a, ['sync']);
    assert.equal(r.reason, 'remote_rewound', JSON.stringify(r));
    assert.ok(String(r.message).includes(seen), String(r.message));
    assert.equal(git(bare(), ['rev-parse', REF]), head, 'nothing pushed');
    assert.deepEqual(storeBytes(a), before);
  });
});
