// A push whose reply is lost (docs/contract.md §13, "Honest when offline"): the connection is cut after the pack was
// sent (test/process/cutProxy.ts in front of `git daemon`), so the remote took the write and the client never heard.
// The outcome is settled by one fetch; when that fails too the answer is remote_outcome_unknown with the request_id a
// retry carries, never "Nothing was changed"; a replay of a write that landed is confirmed, never revoked.
// Real processes, real git.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliAsync, create, git, GitServer, gitServerPerTest, ids, storeBytes } from './gitServer';
import { cutProxy, type CutProxy } from './cutProxy';
import { runCliIn } from './processHarness';

/** The summaries of the records on the shared ref, as the remote holds them. */
function remoteSummaries(server: GitServer): string[] {
  const text = git(server.base, ['--git-dir', 'shared.git', 'show', 'refs/agentsync/state:handoffs.json']);
  return (JSON.parse(text) as { handoffs: { summary: string }[] }).handoffs.map((h) => h.summary).sort();
}

describe('sync: a push whose reply is lost', function () {
  this.timeout(120_000);
  let proxy: CutProxy | null = null;
  // Before the server's own: the proxy lets go of its connections before the daemon stops.
  afterEach(async () => {
    await proxy?.close();
    proxy = null;
  });
  const server = gitServerPerTest();

  async function through(ws: string, mode: CutProxy['mode']): Promise<CutProxy> {
    proxy = await cutProxy(server.port, mode);
    git(ws, ['remote', 'set-url', 'origin', `git://127.0.0.1:${proxy.port}/shared.git`]);
    return proxy;
  }

  it('the remote took the create and the reply was lost: one fetch settles it, answered ok and confirmed; no second handoff', async () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const first = await cliAsync(a, ['request', '-'], create('before'));
    assert.equal(first.ok, true, JSON.stringify(first));
    await through(a, 'cut-push');
    const made = await cliAsync(a, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'lost reply']);
    assert.equal(proxy!.cuts(), 1, 'the push reply was lost');
    assert.equal(made.ok, true, JSON.stringify(made));
    assert.equal((made.data!.sync as { confirmed: boolean }).confirmed, true);
    assert.deepEqual(remoteSummaries(server), ['before', 'lost reply']);
    // Another clone sees exactly that handoff under the id this clone answered.
    const seen = await cliAsync(b, ['sync']);
    assert.equal(seen.ok, true, JSON.stringify(seen));
    assert.ok(ids(b).includes(made.data!.handoff!.handoff_id));
    assert.equal(ids(b).length, 2);
  });

  it('a claim whose reply was lost is held on every clone by the agent it was answered to', async () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const id = (await cliAsync(a, ['request', '-'], create('claim me'))).data!.handoff!.handoff_id;
    await through(a, 'cut-push');
    const claim = await cliAsync(a, ['claim', id, '--agent', 'claude']);
    assert.equal(claim.ok, true, JSON.stringify(claim));
    assert.equal(claim.data!.handoff!.claimed_by, 'claude');
    const other = await cliAsync(b, ['claim', id, '--agent', 'codex']);
    assert.deepEqual([other.reason, other.claimedBy], ['already_claimed', 'claude'], JSON.stringify(other));
  });

  it('the settling fetch fails too: remote_outcome_unknown with the request_id; the retry with --request-id makes no second handoff', async () => {
    const a = server.clone('a');
    const b = server.clone('b');
    assert.equal((await cliAsync(a, ['request', '-'], create('before'))).ok, true);
    const p = await through(a, 'cut-all');
    const args = ['create', '--from', 'codex', '--to', 'claude', '--summary', 'unknown outcome'];
    const made = await cliAsync(a, args);
    assert.equal(made.ok, false, JSON.stringify(made));
    assert.equal(made.reason, 'remote_outcome_unknown', JSON.stringify(made));
    assert.doesNotMatch(String(made.message), /Nothing was changed/i);
    const requestId = made.request_id!;
    assert.match(String(made.message), new RegExp(`--request-id ${requestId}`));
    assert.deepEqual(remoteSummaries(server), ['before', 'unknown outcome'], 'the remote did take it');
    // sync --status tells it is unsettled, without the network.
    const status = await cliAsync(a, ['sync', '--status']);
    assert.deepEqual(
      (status.data!.unsettled as { request_id: string }[]).map((u) => u.request_id),
      [requestId],
    );
    // Its last error is the unknown outcome, not the failed fetch's "Nothing was changed" (the remote holds the write).
    const lastError = status.data!.last_error as { reason: string; message: string };
    assert.equal(lastError.reason, 'remote_outcome_unknown', JSON.stringify(lastError));
    assert.doesNotMatch(lastError.message, /Nothing was changed/i);
    const text = runCliIn(a, ['sync', '--status']).stdout;
    assert.match(text, /last error \(.*\): remote_outcome_unknown: /);
    assert.doesNotMatch(text, /Nothing was changed/i);
    p.mode = 'pass';
    const retry = await cliAsync(a, [...args, '--request-id', requestId]);
    assert.equal(retry.ok, true, JSON.stringify(retry));
    assert.equal((retry.data!.sync as { confirmed: boolean }).confirmed, true);
    assert.deepEqual(remoteSummaries(server), ['before', 'unknown outcome'], 'no second handoff');
    const synced = await cliAsync(a, ['sync']);
    assert.equal(synced.ok, true, JSON.stringify(synced));
    assert.deepEqual(synced.data!.unsettled, []);
    assert.deepEqual(
      (synced.data!.settled as { request_id: string; outcome: string }[]).map((s) => [s.request_id, s.outcome]),
      [[requestId, 'applied']],
    );
    await cliAsync(b, ['sync']);
    assert.equal(ids(b).length, 2);
  });

  it('unknown outcome that did not land: the next contact settles it as not applied', async () => {
    const a = server.clone('a');
    assert.equal((await cliAsync(a, ['request', '-'], create('before'))).ok, true);
    const p = await through(a, 'cut-all');
    // The server's update fails (a stale ref lock), so the pack arrives but nothing lands; the reply is lost anyway.
    const lock = path.join(server.base, 'shared.git', 'refs', 'agentsync', 'state.lock');
    fs.writeFileSync(lock, '');
    const made = await cliAsync(a, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'did not land']);
    fs.rmSync(lock);
    assert.equal(made.reason, 'remote_outcome_unknown', JSON.stringify(made));
    p.mode = 'pass';
    const synced = await cliAsync(a, ['sync']);
    assert.deepEqual(
      (synced.data!.settled as { request_id: string; outcome: string }[]).map((s) => [s.request_id, s.outcome]),
      [[made.request_id, 'not_applied']],
    );
    assert.deepEqual(remoteSummaries(server), ['before']);
  });

  it('unknown outcome, and another clone lands another request under the same request_id: settled not applied', async () => {
    const a = server.clone('a');
    const b = server.clone('b');
    assert.equal((await cliAsync(a, ['request', '-'], create('before'))).ok, true);
    const p = await through(a, 'cut-all');
    const lock = path.join(server.base, 'shared.git', 'refs', 'agentsync', 'state.lock');
    fs.writeFileSync(lock, '');
    const args = ['create', '--from', 'codex', '--to', 'claude', '--request-id', 'shared-1'];
    const made = await cliAsync(a, [...args, '--summary', 'from a']);
    fs.rmSync(lock);
    assert.equal(made.reason, 'remote_outcome_unknown', JSON.stringify(made));
    // Another clone's own request, under the id a chose by hand: it lands, and says nothing of a's write.
    assert.equal((await cliAsync(b, [...args, '--summary', 'from b'])).ok, true);
    p.mode = 'pass';
    const synced = await cliAsync(a, ['sync']);
    assert.deepEqual(
      (synced.data!.settled as { request_id: string; outcome: string }[]).map((s) => [s.request_id, s.outcome]),
      [['shared-1', 'not_applied']],
    );
    assert.deepEqual(remoteSummaries(server).sort(), ['before', 'from b']);
  });

  it('offline "local": a create whose reply was lost and whose fetch failed is confirmed at the next sync, never revoked', async () => {
    const a = server.clone('a', { remote: 'origin', offline: 'local' });
    assert.equal((await cliAsync(a, ['request', '-'], create('before'))).ok, true);
    const p = await through(a, 'cut-all');
    const made = await cliAsync(a, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'landed offline']);
    assert.equal(made.ok, true, JSON.stringify(made));
    assert.equal((made.data!.sync as { confirmed: boolean }).confirmed, false);
    p.mode = 'pass';
    const synced = await cliAsync(a, ['sync']);
    assert.equal(synced.ok, true, JSON.stringify(synced));
    assert.deepEqual(synced.data!.revoked, [], JSON.stringify(synced));
    assert.deepEqual(synced.data!.confirmed, [made.request_id]);
    assert.deepEqual(remoteSummaries(server), ['before', 'landed offline']);
    const records = (JSON.parse(storeBytes(a)!.toString()) as { handoffs: { summary: string }[] }).handoffs;
    assert.equal(records.length, 2);
  });

  it('a push cut by the remote timeout (the reply never comes) is settled by one fetch too', async () => {
    const a = server.clone('a');
    assert.equal((await cliAsync(a, ['request', '-'], create('before'))).ok, true);
    await through(a, 'hang-push');
    const previous = process.env.AGENTSYNC_REMOTE_TIMEOUT_MS;
    process.env.AGENTSYNC_REMOTE_TIMEOUT_MS = '3000';
    let made;
    try {
      made = await cliAsync(a, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'slow reply']);
    } finally {
      if (previous === undefined) delete process.env.AGENTSYNC_REMOTE_TIMEOUT_MS;
      else process.env.AGENTSYNC_REMOTE_TIMEOUT_MS = previous;
    }
    assert.equal(made.ok, true, JSON.stringify(made));
    assert.equal((made.data!.sync as { confirmed: boolean }).confirmed, true);
    assert.deepEqual(remoteSummaries(server), ['before', 'slow reply']);
  });
});
