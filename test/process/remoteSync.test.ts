// Sync mode with a real git server (docs/contract.md §13): `git daemon` with receive-pack on 127.0.0.1 and two or
// three clones, each an AgentSync workspace whose writes go through the remote. Real processes, real git, no fakes.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { cli, cliAsync, countingProxy, create, git, gitServerPerTest, ids, storeBytes, type Answer } from './gitServer';
import { CLI, runCliIn, tempWorkspace } from './processHarness';

describe('sync through a git remote (git daemon on 127.0.0.1)', function () {
  this.timeout(120_000);
  const server = gitServerPerTest();

  it('two clones claiming one handoff at once: exactly one ok, the other already_claimed naming the winner', async () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const created = cli(a, ['request', '-'], create('race me'));
    assert.equal(created.ok, true, JSON.stringify(created));
    const id = created.data!.handoff!.handoff_id;
    const [ra, rb] = await Promise.all([cliAsync(a, ['claim', id, '--agent', 'claude']), cliAsync(b, ['claim', id, '--agent', 'codex'])]);
    const winners = [ra, rb].filter((r) => r.ok);
    assert.equal(winners.length, 1, `exactly one winner: ${JSON.stringify([ra, rb])}`);
    const winner = winners[0].data!.handoff!.claimed_by;
    const loser = ra.ok ? rb : ra;
    assert.equal(loser.reason, 'already_claimed');
    assert.equal(loser.claimedBy, winner);
    assert.equal((winners[0].data!.sync as { confirmed: boolean }).confirmed, true);
    // After a sync both clones hold the same record with the same claimer.
    assert.equal(cli(a, ['sync']).ok, true);
    assert.equal(cli(b, ['sync']).ok, true);
    assert.deepEqual(storeBytes(a), storeBytes(b));
  });

  it('an uncontended write is one conversation with the remote: pushed on the last known commit, no fetch first', async () => {
    const a = server.clone('a');
    const id = cli(a, ['request', '-'], create('counted')).data!.handoff!.handoff_id;
    const proxy = await countingProxy(server.port);
    try {
      git(a, ['remote', 'set-url', 'origin', `git://127.0.0.1:${proxy.port}/shared.git`]);
      const claim = await cliAsync(a, ['claim', id, '--agent', 'claude']);
      assert.equal(claim.ok, true, JSON.stringify(claim));
      assert.deepEqual(
        [(claim.data!.sync as { confirmed: boolean }).confirmed, (claim.data!.sync as { commit: string }).commit],
        [true, server.remoteLog()[0]],
      );
      assert.equal(proxy.connections(), 1, 'one push, no fetch');
      const made = await cliAsync(a, ['request', '-'], create('counted too'));
      assert.equal(made.ok, true, JSON.stringify(made));
      assert.equal(proxy.connections(), 2, 'a create too: one push');
      assert.equal(server.remoteLog().length, 3);
    } finally {
      await proxy.close();
    }
  });

  it("a refusal from this clone's old view is not the answer: fetched and decided again (released elsewhere, the claim wins)", () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const id = cli(a, ['request', '-'], create('released elsewhere')).data!.handoff!.handoff_id;
    assert.equal(cli(a, ['claim', id, '--agent', 'claude']).ok, true);
    // Clone B releases it; clone A's last known state still says claude holds it.
    assert.equal(cli(b, ['sync']).ok, true);
    const released = cli(b, ['release', id, '--agent', 'claude']);
    assert.equal(released.ok, true, JSON.stringify(released));
    const claim = cli(a, ['claim', id, '--agent', 'codex']);
    assert.equal(claim.ok, true, JSON.stringify(claim));
    assert.equal(claim.data!.handoff!.claimed_by, 'codex');
    assert.equal((claim.data!.sync as { commit: string }).commit, server.remoteLog()[0]);
  });

  it("a write decided on this clone's old view loses the compare-and-swap: already_claimed naming the winner", async () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const id = cli(a, ['request', '-'], create('won elsewhere')).data!.handoff!.handoff_id;
    assert.equal(cli(b, ['sync']).ok, true);
    assert.equal(cli(b, ['claim', id, '--agent', 'codex']).ok, true);
    const commits = server.remoteLog();
    const proxy = await countingProxy(server.port);
    try {
      git(a, ['remote', 'set-url', 'origin', `git://127.0.0.1:${proxy.port}/shared.git`]);
      const claim = await cliAsync(a, ['claim', id, '--agent', 'claude']);
      assert.equal(claim.ok, false, JSON.stringify(claim));
      assert.deepEqual([claim.reason, claim.claimedBy], ['already_claimed', 'codex']);
      assert.equal(proxy.connections(), 2, 'the push refused (stale lease), then a fetch');
    } finally {
      await proxy.close();
    }
    assert.deepEqual(server.remoteLog(), commits, 'nothing pushed');
    assert.equal((JSON.parse(storeBytes(a)!.toString()) as { handoffs: { claimed_by?: string }[] }).handoffs[0].claimed_by, 'codex');
  });

  it("the ref moved between the push's look and its update (the server fails the update): applied again, already_claimed", () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const id = cli(a, ['request', '-'], create('raced on the server')).data!.handoff!.handoff_id;
    const before = server.remoteLog()[0];
    assert.equal(cli(b, ['sync']).ok, true);
    assert.equal(cli(b, ['claim', id, '--agent', 'codex']).ok, true);
    const won = server.remoteLog()[0];
    // Back to the state clone A knows; a pre-receive hook moves the ref to B's claim once, after the push's lease check.
    const bare = path.join(server.base, 'shared.git');
    git(bare, ['update-ref', 'refs/agentsync/state', before]);
    const once = path.join(server.base, 'moved-once');
    fs.writeFileSync(
      path.join(bare, 'hooks', 'pre-receive'),
      `#!/bin/sh\ncat >/dev/null\n[ -e ${once} ] && exit 0\ntouch ${once}\nenv -u GIT_QUARANTINE_PATH git update-ref refs/agentsync/state ${won}\n`,
      { mode: 0o755 },
    );
    const claim = cli(a, ['claim', id, '--agent', 'claude']);
    assert.equal(fs.existsSync(once), true, 'the hook ran');
    assert.deepEqual([claim.reason, claim.claimedBy], ['already_claimed', 'codex'], JSON.stringify(claim));
    assert.equal(server.remoteLog()[0], won);
  });

  it('a push the server cannot apply while the ref stays put is remote_refused, not retried until remote_busy', () => {
    const a = server.clone('a');
    const id = cli(a, ['request', '-'], create('stuck ref')).data!.handoff!.handoff_id;
    const before = storeBytes(a);
    // What a server's git killed mid-update leaves: the ref's lock file; every update of the ref then fails.
    fs.writeFileSync(path.join(server.base, 'shared.git', 'refs', 'agentsync', 'state.lock'), '');
    const claim = cli(a, ['claim', id, '--agent', 'claude']);
    assert.equal(claim.reason, 'remote_refused', JSON.stringify(claim));
    assert.match(String(claim.detail), /did not move/);
    assert.deepEqual(storeBytes(a), before);
  });

  it('creates from two clones get distinct ids, identical on both clones after a sync', async () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const answers = await Promise.all([
      ...[1, 2, 3].map((i) => cliAsync(a, ['request', '-'], create(`from a ${i}`))),
      ...[1, 2, 3].map((i) => cliAsync(b, ['request', '-'], create(`from b ${i}`))),
    ]);
    assert.ok(
      answers.every((r) => r.ok),
      JSON.stringify(answers),
    );
    const answered = answers.map((r) => r.data!.handoff!.handoff_id);
    assert.equal(new Set(answered).size, 6, `six distinct ids: ${answered.join(', ')}`);
    cli(a, ['sync']);
    cli(b, ['sync']);
    assert.deepEqual(ids(a), [...answered].sort());
    assert.deepEqual(ids(b), [...answered].sort());
  });

  it('a retry with the same request_id after success is answered, not applied again, on the same or another clone', () => {
    const a = server.clone('a');
    const b = server.clone('b');
    const first = cli(a, ['request', '-'], create('once', { request_id: 'create-once-1' }));
    assert.equal(first.ok, true);
    const commits = server.remoteLog().length;
    const again = cli(a, ['request', '-'], create('once', { request_id: 'create-once-1' }));
    const elsewhere = cli(b, ['request', '-'], create('once', { request_id: 'create-once-1' }));
    const uidOf = (r: Answer) => (r.data!.handoff as unknown as { uid: string }).uid;
    for (const r of [again, elsewhere]) {
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(r.data!.handoff!.handoff_id, first.data!.handoff!.handoff_id);
      assert.equal(uidOf(r), uidOf(first), 'the same handoff, not a second one');
    }
    assert.equal(server.remoteLog().length, commits, 'no new commit on the shared ref');
    cli(b, ['sync']);
    const records = (JSON.parse(storeBytes(b)!.toString()) as { handoffs: { uid: string }[] }).handoffs;
    assert.deepEqual(
      records.map((h) => h.uid),
      [uidOf(first)],
    );
  });

  it('killed right after its push: the retry with the same request_id is answered from the shared state, not applied twice', () => {
    const a = server.clone('a');
    const request = create('killed after push', { request_id: 'killed-after-push-1' });
    const killed = spawnSync(process.execPath, [CLI, '--dir', a, '--json', 'request', '-'], {
      input: request,
      encoding: 'utf8',
      env: { ...process.env, AGENTSYNC_TEST_CRASH_AFTER_PUSH: '1' },
    });
    assert.equal(killed.signal, 'SIGKILL');
    assert.equal(killed.stdout, '', 'no answer was given');
    assert.equal(server.remoteLog().length, 1, 'the push happened');
    assert.equal(storeBytes(a), null, 'the local store was not written yet');
    const retry = cli(a, ['request', '-'], request);
    assert.equal(retry.ok, true, JSON.stringify(retry));
    assert.equal(server.remoteLog().length, 1, 'nothing applied twice');
    assert.deepEqual(ids(a), [retry.data!.handoff!.handoff_id]);
  });

  it('turning sync on: records only one clone held join the shared state on its first contact, none lost', () => {
    const a = server.clone('a');
    const b = server.clone('b');
    fs.writeFileSync(path.join(b, '.agentsync.json'), '{}');
    const before = cli(b, ['request', '-'], create('made before sync was on'));
    const seeded = cli(a, ['request', '-'], create('seeded by a'));
    assert.equal(before.data!.handoff!.handoff_id, seeded.data!.handoff!.handoff_id, 'the same id on two clones: the case to solve');
    fs.writeFileSync(path.join(b, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin' } }));
    assert.equal(cli(b, ['sync']).ok, true);
    cli(a, ['sync']);
    const summaries = (ws: string) =>
      (JSON.parse(storeBytes(ws)!.toString()) as { handoffs: { summary: string; handoff_id: string }[] }).handoffs
        .map((h) => h.summary)
        .sort();
    assert.deepEqual(summaries(a), ['made before sync was on', 'seeded by a']);
    assert.deepEqual(storeBytes(a), storeBytes(b));
    assert.equal(new Set(ids(a)).size, 2, 'distinct ids');
  });

  it("agentsync sync alone seeds an empty remote with this clone's records", () => {
    const a = server.clone('a');
    fs.writeFileSync(path.join(a, '.agentsync.json'), '{}');
    cli(a, ['request', '-'], create('made before sync was on'));
    fs.writeFileSync(path.join(a, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin' } }));
    assert.equal(server.remoteLog().length, 0);
    assert.equal(cli(a, ['sync']).ok, true);
    assert.equal(server.remoteLog().length, 1);
    const b = server.clone('b');
    cli(b, ['sync']);
    assert.deepEqual(storeBytes(b), storeBytes(a));
  });

  it('a broken shared state is refused as store_invalid naming the ref; nothing changes here', () => {
    const a = server.clone('a');
    cli(a, ['request', '-'], create('good'));
    const before = storeBytes(a);
    // Someone pushes a commit whose handoffs.json is not JSON.
    const bare = path.join(server.base, 'shared.git');
    const blob = spawnSync('git', ['--git-dir', bare, 'hash-object', '-w', '--stdin'], {
      input: '{ not json',
      encoding: 'utf8',
    }).stdout.trim();
    const tree = spawnSync('git', ['--git-dir', bare, 'mktree'], {
      input: `100644 blob ${blob}\thandoffs.json\n`,
      encoding: 'utf8',
    }).stdout.trim();
    const env = { ...process.env, GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@x', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@x' };
    const parent = server.remoteLog()[0];
    const commit = spawnSync('git', ['--git-dir', bare, 'commit-tree', tree, '-p', parent, '-m', 'broken'], {
      encoding: 'utf8',
      env,
    }).stdout.trim();
    git(bare, ['update-ref', 'refs/agentsync/state', commit]);
    const claim = cli(a, ['request', '-'], create('after the break'));
    assert.equal(claim.reason, 'store_invalid', JSON.stringify(claim));
    assert.match(String(claim.message), /refs\/agentsync\/state/);
    assert.deepEqual(storeBytes(a), before);
  });

  it('a ref lock left by a git killed mid-fetch does not block the next write', () => {
    const a = server.clone('a');
    const created = cli(a, ['request', '-'], create('before the kill'));
    const id = created.data!.handoff!.handoff_id;
    // What a SIGKILL during `git fetch` leaves: the lock file of the private ref it was updating.
    const lock = path.join(a, '.git', 'agentsync', '@state.git', 'refs', 'agentsync-fetched', 'origin', 'agentsync', 'state.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, '');
    // Another clone moves the ref, so this clone's next fetch must update its private ref.
    const b = server.clone('b');
    assert.equal(cli(b, ['request', '-'], create('meanwhile on b')).ok, true);
    const claim = cli(a, ['claim', id, '--agent', 'claude']);
    assert.equal(claim.ok, true, JSON.stringify(claim));
    assert.equal((claim.data!.sync as { confirmed: boolean }).confirmed, true);
  });

  it('the remote stopped: remote_unreachable, and the store byte-identical', async () => {
    const a = server.clone('a');
    const created = cli(a, ['request', '-'], create('before the outage'));
    const id = created.data!.handoff!.handoff_id;
    const before = storeBytes(a);
    await server.stop();
    const claim = cli(a, ['claim', id, '--agent', 'claude']);
    assert.equal(claim.ok, false);
    assert.equal(claim.reason, 'remote_unreachable', JSON.stringify(claim));
    assert.deepEqual(storeBytes(a), before);
    const made = cli(a, ['request', '-'], create('during the outage'));
    assert.equal(made.reason, 'remote_unreachable');
    assert.deepEqual(storeBytes(a), before);
    // What changes nothing is still answered, from this clone's view, marked unconfirmed: the agent keeps its briefing.
    const briefing = cli(a, ['request', '-'], JSON.stringify({ action: 'startSession', agent: 'claude', goal: 'offline' }));
    assert.equal(briefing.ok, true, JSON.stringify(briefing));
    assert.deepEqual(briefing.data!.sync, {
      confirmed: false,
      pending: false,
      remote: 'origin',
      ref: 'refs/agentsync/state',
      reason: 'remote_unreachable',
      commit: null,
    });
    assert.deepEqual(storeBytes(a), before);
    const status = cli(a, ['sync', '--status']);
    assert.equal(status.ok, true);
    assert.equal((status.data!.last_error as { reason: string }).reason, 'remote_unreachable');
    // A fresh read cannot be fresh now: the refusal says that a read without --fresh answers from this clone.
    const freshRead = cli(a, ['--fresh', 'list']);
    assert.equal(freshRead.reason, 'remote_unreachable', JSON.stringify(freshRead));
    assert.match(String(freshRead.message), /A read without --fresh .* answers from this clone's last synced state/);
    assert.equal(cli(a, ['list']).ok, true, 'a read without --fresh answers locally');
    await server.start();
  });

  it('offline "local": confirmed:false while unreachable; the next sync confirms one claim and revokes the one another clone won', async () => {
    const a = server.clone('a', { remote: 'origin', offline: 'local' });
    const b = server.clone('b', { remote: 'origin', offline: 'local' });
    const one = cli(a, ['request', '-'], create('one')).data!.handoff!.handoff_id;
    const two = cli(a, ['request', '-'], create('two')).data!.handoff!.handoff_id;
    cli(b, ['sync']);
    await server.stop();
    const c1 = cli(a, ['claim', one, '--agent', 'claude']);
    const c2 = cli(a, ['claim', two, '--agent', 'claude']);
    for (const c of [c1, c2]) {
      assert.equal(c.ok, true, JSON.stringify(c));
      assert.deepEqual(
        { confirmed: (c.data!.sync as { confirmed: boolean }).confirmed, pending: (c.data!.sync as { pending: boolean }).pending },
        { confirmed: false, pending: true },
      );
    }
    assert.equal(cli(a, ['sync', '--status']).data!.pending, 2);
    await server.start();
    // Meanwhile clone B, online, claimed `two` first.
    const won = cli(b, ['claim', two, '--agent', 'codex']);
    assert.equal(won.ok, true, JSON.stringify(won));
    const synced = cli(a, ['sync']);
    assert.equal(synced.ok, true, JSON.stringify(synced));
    assert.deepEqual(synced.data!.confirmed, [c1.request_id]);
    const revoked = synced.data!.revoked as { request_id: string; handoff_id: string; reason: string; agent: string }[];
    assert.deepEqual(
      revoked.map((r) => [r.request_id, r.handoff_id, r.reason, r.agent]),
      [[c2.request_id, two, 'already_claimed', 'claude']],
    );
    assert.equal(synced.data!.pending, 0);
    // The shared state and both clones agree: one is claude's, two is codex's.
    cli(b, ['sync']);
    assert.deepEqual(storeBytes(a), storeBytes(b));
    const records = (JSON.parse(storeBytes(a)!.toString()) as { handoffs: { handoff_id: string; claimed_by?: string }[] }).handoffs;
    assert.deepEqual(
      records.map((h) => [h.handoff_id, h.claimed_by]),
      [
        [one, 'claude'],
        [two, 'codex'],
      ],
    );
    // The human output names the revocation too.
    const text = runCliIn(a, ['sync']).stdout;
    assert.match(text, new RegExp(`REVOKED: claimHandoff ${two} by claude`));
    // So does claude's next briefing, once; the session-start hook puts it first in the agent's context.
    const briefing = cli(a, ['request', '-'], JSON.stringify({ action: 'startSession', agent: 'claude', goal: 'go on' }));
    assert.deepEqual(
      (briefing.data!.sync_revoked as { handoff_id: string }[]).map((r) => r.handoff_id),
      [two],
    );
    const next = cli(a, ['request', '-'], JSON.stringify({ action: 'startSession', agent: 'claude', goal: 'again' }));
    assert.equal(next.data!.sync_revoked, undefined, 'told once');
  });

  it('a heartbeat before half the lease reaches nothing; past half it renews through the remote', async () => {
    const a = server.clone('a');
    const cfg = path.join(a, '.agentsync.json');
    fs.writeFileSync(cfg, JSON.stringify({ sync: { remote: 'origin' }, leaseMinutes: 0.1 }));
    const id = cli(a, ['request', '-'], create('leased')).data!.handoff!.handoff_id;
    assert.equal(cli(a, ['claim', id, '--agent', 'claude']).ok, true);
    const commits = server.remoteLog().length;
    const beat = (): Answer => cli(a, ['request', '-'], JSON.stringify({ action: 'heartbeat', handoffId: id, agent: 'claude' }));
    const early = beat();
    assert.equal(early.ok, true, JSON.stringify(early));
    assert.equal(early.data!.renewed, false);
    assert.equal(server.remoteLog().length, commits, 'no push before half the lease');
    await new Promise((r) => setTimeout(r, 3200)); // past half of a 6 s lease
    const late = beat();
    assert.equal(late.data!.renewed, true, JSON.stringify(late));
    assert.equal(server.remoteLog().length, commits + 1);
  });

  it('reads are local and say when they last heard from the remote; --fresh and "fresh": true fetch first', () => {
    const a = server.clone('a');
    const b = server.clone('b');
    cli(b, ['sync']);
    const made = cli(a, ['request', '-'], create('seen later'));
    const id = made.data!.handoff!.handoff_id;
    const stale = cli(b, ['list']);
    assert.equal(stale.data!.count, 0, 'a plain read does not fetch');
    const fetchedBefore = (stale.data!.sync as { fetched_at: string }).fetched_at;
    assert.ok(fetchedBefore, 'the read says when this clone last heard from the remote');
    const fresh = cli(b, ['--fresh', 'list']);
    assert.equal(fresh.data!.count, 1);
    assert.ok((fresh.data!.sync as { fetched_at: string }).fetched_at > fetchedBefore);
    cli(a, ['claim', id, '--agent', 'claude']);
    const field = cli(b, ['request', '-'], JSON.stringify({ action: 'listHandoffs', fresh: true }));
    const records = field.data!.handoffs as { handoff_id: string; claimed_by?: string }[];
    assert.equal(records[0].claimed_by, 'claude');
  });

  it('agentsync sync --status tells without contacting the remote; sync --status with sync off says so', async () => {
    const a = server.clone('a');
    cli(a, ['request', '-'], create('status'));
    const head = server.remoteLog()[0];
    await server.stop();
    const status = cli(a, ['sync', '--status']);
    assert.equal(status.ok, true);
    assert.equal(status.data!.enabled, true);
    assert.equal(status.data!.commit, head);
    assert.equal(status.data!.last_error, null, 'no contact was tried');
    await server.start();
    const off = tempWorkspace('sync-off');
    assert.deepEqual(cli(off, ['sync', '--status']).data, { enabled: false });
    assert.equal(cli(off, ['sync']).reason, 'invalid_config');
  });

  it('a push the server refuses (a hook declining) is remote_refused with its message; nothing changed', () => {
    const a = server.clone('a');
    const hook = path.join(server.base, 'shared.git', 'hooks', 'pre-receive');
    fs.writeFileSync(hook, '#!/bin/sh\necho "refs/agentsync/* is protected here" >&2\nexit 1\n', { mode: 0o755 });
    const made = cli(a, ['request', '-'], create('refused'));
    assert.equal(made.reason, 'remote_refused', JSON.stringify(made));
    assert.match(String(made.detail), /protected here/);
    assert.equal(storeBytes(a), null);
  });

  it('a committed sync.remote that is a URL (ext::) is refused as CONFIG_INVALID; nothing runs, nothing is written', () => {
    const a = server.clone('a');
    const marker = path.join(path.dirname(a), 'pwned');
    fs.writeFileSync(path.join(a, '.agentsync.json'), JSON.stringify({ sync: { remote: `ext::sh -c touch% ${marker}` } }));
    const made = cli(a, ['request', '-'], create('url remote'));
    assert.equal(made.reason, 'CONFIG_INVALID', JSON.stringify(made));
    assert.match(String(made.message), /sync/);
    assert.equal(fs.existsSync(marker), false);
    assert.equal(storeBytes(a), null);
  });

  it("a clone's remote.<name>.uploadpack / receivepack naming a program is not run", () => {
    // A path remote runs upload-pack and receive-pack locally: the clone's config could name any program for them.
    const a = server.clone('a');
    const marker = path.join(path.dirname(a), 'ran');
    const script = path.join(path.dirname(a), 'evil.sh');
    fs.writeFileSync(script, `#!/bin/sh\ntouch ${marker}\nexec git-upload-pack "$@"\n`, { mode: 0o755 });
    git(a, ['remote', 'set-url', 'origin', path.join(server.base, 'shared.git')]);
    git(a, ['config', 'remote.origin.uploadpack', script]);
    git(a, ['config', 'remote.origin.receivepack', script]);
    const made = cli(a, ['request', '-'], create('path remote'));
    assert.equal(made.ok, true, JSON.stringify(made));
    assert.equal(fs.existsSync(marker), false, 'the configured program never ran');
    assert.equal(server.remoteLog().length, 1);
  });

  it('a remote that wants credentials is remote_auth at once, never a prompt', async () => {
    const a = server.clone('a');
    const httpServer = http.createServer((_req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="x"' });
      res.end();
    });
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
    try {
      const port = (httpServer.address() as net.AddressInfo).port;
      git(a, ['remote', 'set-url', 'origin', `http://127.0.0.1:${port}/shared.git`]);
      const made = await cliAsync(a, ['request', '-'], create('auth'));
      assert.equal(made.reason, 'remote_auth', JSON.stringify(made));
      assert.equal(storeBytes(a), null);
    } finally {
      httpServer.close();
    }
  });
});
