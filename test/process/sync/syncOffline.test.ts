// The remote stopped (docs/contract.md §13, "Honest when offline"): with `offline: "refuse"` every write is refused
// `remote_unreachable` and the store is byte-identical; once the remote is back, writes are confirmed again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SyncTeam } from './syncTeam';

/** The files a write may change in a clone: the store, the tracker, the archive. */
function snapshot(ws: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const rel of ['.agentsync/handoffs.json', 'AgentTracker.md']) files.set(rel, fs.readFileSync(path.join(ws, rel), 'utf8'));
  const archive = path.join(ws, '.agentsync/archive');
  if (fs.existsSync(archive))
    for (const n of fs.readdirSync(archive)) files.set(`archive/${n}`, fs.readFileSync(path.join(archive, n), 'utf8'));
  return files;
}

describe('sync mode on the test network: the remote stopped', function () {
  this.timeout(180_000);
  let team: SyncTeam | undefined;

  afterEach(() => {
    team?.destroy();
    team = undefined;
  });

  it('offline "refuse": claim, create and sync answer remote_unreachable and change nothing; confirmed again once it is back', async () => {
    team = await SyncTeam.create({ clones: 2, humans: ['ana', 'ben'] });
    const created = await team.ok(0, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'before the outage']);
    const id = created.data!.handoff!.handoff_id;
    await team.ok(1, ['sync']);
    const before = [snapshot(team.clones[0]), snapshot(team.clones[1])];
    const remoteBefore = team.remoteCommit();

    await team.daemon.stop();
    const attempts: [number, string[]][] = [
      [1, ['claim', id, '--agent', 'ben']],
      [1, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'during the outage']],
      [0, ['claim', id, '--agent', 'ana']],
    ];
    for (const [i, args] of attempts) {
      const { run, answer } = await team.json(i, args);
      assert.equal(answer.ok, false, `host ${i}: ${args.join(' ')} must not be ok while the remote is down: ${run.stdout}`);
      assert.equal(answer.reason, 'remote_unreachable', run.stdout);
      assert.equal(typeof answer.message, 'string');
      assert.equal(run.code, 1);
    }
    const synced = await team.json(1, ['sync']);
    assert.equal(synced.answer.ok, false, synced.run.stdout);
    assert.equal(synced.answer.reason, 'remote_unreachable');
    assert.deepEqual(snapshot(team.clones[0]), before[0], 'host 0: store, tracker and archive byte-identical');
    assert.deepEqual(snapshot(team.clones[1]), before[1], 'host 1: store, tracker and archive byte-identical');
    assert.equal(team.remoteCommit(), remoteBefore);

    team.daemon = await team.net.startDaemon();
    const claimed = await team.ok(1, ['claim', id, '--agent', 'ben']);
    assert.equal(claimed.data?.sync?.confirmed, true);
    assert.notEqual(team.remoteCommit(), remoteBefore);
    const final = await team.syncAllAndCompare();
    assert.equal(final.find((h) => h.handoff_id === id)!.claimed_by, 'ben');
    assert.equal(final.length, 1, 'nothing of the outage was applied');
  });
});
