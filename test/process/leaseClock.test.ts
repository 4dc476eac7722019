// Leases across clones (docs/contract.md §4, §13): a clone whose clock runs ahead must not release another clone's live
// claim. Two clones against `git daemon` on 127.0.0.1, the CLI as real processes; clone B's clock is moved with the
// test-only AGENTSYNC_TEST_CLOCK_OFFSET_MS (src/cli/testClock.ts).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cli, create, gitServerPerTest, type Answer } from './gitServer';
import { CLI } from './processHarness';

const MINUTE = 60_000;

/** `agentsync --dir ws --json request -` with this process's clock moved by `offsetMs`. */
function requestAt(ws: string, offsetMs: number, request: Record<string, unknown>): Answer {
  const r = spawnSync(process.execPath, [CLI, '--dir', ws, '--json', 'request', '-'], {
    encoding: 'utf8',
    input: JSON.stringify(request),
    env: { ...process.env, AGENTSYNC_TEST_CLOCK_OFFSET_MS: String(offsetMs) },
  });
  try {
    return JSON.parse(r.stdout) as Answer;
  } catch {
    throw new Error(`no JSON answer from agentsync request ${JSON.stringify(request)}: ${r.stdout}${r.stderr}`);
  }
}

function released(answer: Answer): string[] {
  assert.equal(answer.ok, true, JSON.stringify(answer));
  return ((answer.data as { released: { handoff_id: string }[] }).released ?? []).map((h) => h.handoff_id);
}

function holder(ws: string, id: string): string | null {
  const shown = cli(ws, ['show', id, '--fresh']);
  assert.equal(shown.ok, true, JSON.stringify(shown));
  return (shown.data as { handoff: { claimed_by?: string | null } }).handoff.claimed_by ?? null;
}

describe('leases across clones: expiry on what this clone saw, not on the record (git daemon on 127.0.0.1)', function () {
  this.timeout(120_000);
  const server = gitServerPerTest();

  it("a clone 40 minutes ahead keeps another clone's live claim, and expires it once it has itself watched it a full lease", () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const id = cli(a, ['request', '-'], create('held on A')).data!.handoff!.handoff_id;
    const claim = cli(a, ['claim', id, '--agent', 'claude']);
    assert.equal(claim.ok, true, JSON.stringify(claim));
    assert.equal(cli(b, ['sync']).ok, true);

    // By B's clock A's 30-minute lease ran out 10 minutes ago; B has not seen it for 30 minutes of its own.
    assert.deepEqual(released(requestAt(b, 40 * MINUTE, { action: 'expireLeases' })), []);
    assert.equal(holder(a, id), 'claude', 'still held on the remote');

    // 29 minutes later on B's clock: still short of a lease.
    assert.deepEqual(released(requestAt(b, 69 * MINUTE, { action: 'expireLeases' })), []);
    // B has now seen the same record unchanged for 31 minutes: the holder is gone as far as B can tell.
    assert.deepEqual(released(requestAt(b, 71 * MINUTE, { action: 'expireLeases' })), [id]);
    assert.equal(holder(a, id), null, 'released on the remote');
  });

  it('a renewal B had not seen starts its watch again: the stale view loses the compare-and-swap and nothing is released', () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const id = cli(a, ['request', '-'], create('renewed on A')).data!.handoff!.handoff_id;
    assert.equal(cli(a, ['claim', id, '--agent', 'claude']).ok, true);
    assert.equal(cli(b, ['sync']).ok, true);
    assert.deepEqual(released(requestAt(b, 40 * MINUTE, { action: 'expireLeases' })), []);

    // A renews past half its lease (its own clock); B's view still holds the old version.
    const beat = requestAt(a, 16 * MINUTE, { action: 'heartbeat', handoff_id: id, agent: 'claude' });
    assert.equal(beat.ok, true, JSON.stringify(beat));
    assert.equal((beat.data as { renewed?: boolean }).renewed, true, JSON.stringify(beat));

    // A lease after B first saw the old version: B fetches the renewal (its push refused), which it has just seen.
    assert.deepEqual(released(requestAt(b, 71 * MINUTE, { action: 'expireLeases' })), []);
    assert.equal(holder(a, id), 'claude');
    // A full lease after B saw the renewal, with no other: released.
    assert.deepEqual(released(requestAt(b, 102 * MINUTE, { action: 'expireLeases' })), [id]);
    assert.equal(holder(a, id), null);
  });

  it("a clone's own claim still expires a lease after it was taken, on that clone's clock", () => {
    const a = server.clone('a');
    const id = cli(a, ['request', '-'], create('own claim')).data!.handoff!.handoff_id;
    assert.equal(cli(a, ['claim', id, '--agent', 'claude']).ok, true);
    assert.deepEqual(released(requestAt(a, 29 * MINUTE, { action: 'expireLeases' })), []);
    assert.deepEqual(released(requestAt(a, 31 * MINUTE, { action: 'expireLeases' })), [id]);
  });
});
