// The test network itself (test/process/sync/netHarness.ts): separate hosts reach one git daemon over their own
// links, a push from one host is fetched by another, the delaying proxy carries git's protocol, and nothing is left
// behind, neither by this run nor by a crashed earlier one.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempWorkspace } from '../processHarness';
import { leftoverNamespaces, TestNet } from './netHarness';

const gitId = ['-c', 'user.name=net test', '-c', 'user.email=net@test.invalid'];

describe('sync test network: hosts in network namespaces around a git daemon', function () {
  this.timeout(120_000);
  let net: TestNet | undefined;
  let work: string | undefined;

  afterEach(() => {
    net?.destroy();
    net = undefined;
    if (work) fs.rmSync(work, { recursive: true, force: true });
    work = undefined;
  });

  it('two hosts clone from the daemon; a push from one host is fetched by the other', async () => {
    net = TestNet.create(2);
    work = tempWorkspace('netclones');
    net.bareRepo('repo.git');
    const daemon = await net.startDaemon();
    const [a, b] = [path.join(work, 'a'), path.join(work, 'b')];
    await net.git(0, ['clone', '--quiet', net.url('repo.git'), a]);
    await net.git(1, ['clone', '--quiet', net.url('repo.git'), b]);

    fs.writeFileSync(path.join(a, 'note.txt'), 'from host a\n');
    await net.git(0, ['-C', a, 'add', 'note.txt']);
    await net.git(0, ['-C', a, ...gitId, 'commit', '--quiet', '-m', 'from a']);
    await net.git(0, ['-C', a, 'push', '--quiet', 'origin', 'HEAD:refs/heads/main', 'HEAD:refs/agentsync/state']);
    const pushed = (await net.git(0, ['-C', a, 'rev-parse', 'HEAD'])).trim();

    await net.git(1, ['-C', b, 'fetch', '--quiet', 'origin', '+refs/agentsync/state:refs/fetched/state']);
    assert.equal((await net.git(1, ['-C', b, 'rev-parse', 'refs/fetched/state'])).trim(), pushed);
    assert.equal(await net.git(1, ['-C', b, 'show', `${pushed}:note.txt`]), 'from host a\n');
    // The daemon saw both hosts, each from its own address: they are separate hosts on the link.
    assert.match(daemon.log(), new RegExp(`Connection from ${net.clientIp(0).replace(/\./g, '\\.')}:`));
    assert.match(daemon.log(), new RegExp(`Connection from ${net.clientIp(1).replace(/\./g, '\\.')}:`));
  });

  it('a compare-and-swap on the ref: a push whose lease names an old value is refused once the ref moved', async () => {
    net = TestNet.create(2);
    work = tempWorkspace('netcas');
    net.bareRepo('repo.git');
    await net.startDaemon();
    const [a, b] = [path.join(work, 'a'), path.join(work, 'b')];
    for (const [i, dir] of [a, b].entries()) {
      await net.git(i, ['init', '--quiet', dir]);
      fs.writeFileSync(path.join(dir, 'f'), `${i}\n`);
      await net.git(i, ['-C', dir, 'add', 'f']);
      await net.git(i, ['-C', dir, ...gitId, 'commit', '--quiet', '-m', `host ${i}`]);
      await net.git(i, ['-C', dir, 'remote', 'add', 'origin', net.url('repo.git')]);
    }
    await net.git(0, ['-C', a, 'push', '--quiet', '--force-with-lease=refs/agentsync/state:', 'origin', 'HEAD:refs/agentsync/state']);
    // Host b expected the ref to be absent too: the remote refuses, its ref stays host a's commit.
    const refused = await net.run(net.clientNs[1], 'git', [
      '-C',
      b,
      'push',
      '--porcelain',
      '--force-with-lease=refs/agentsync/state:',
      'origin',
      'HEAD:refs/agentsync/state',
    ]);
    assert.notEqual(refused.code, 0, refused.stdout + refused.stderr);
    assert.match(refused.stdout, /^!\tHEAD:refs\/agentsync\/state\t\[rejected\] \(stale info\)$/m);
    const remoteRef = spawnSync('git', ['-C', path.join(net.base, 'repo.git'), 'rev-parse', 'refs/agentsync/state'], {
      encoding: 'utf8',
    }).stdout.trim();
    assert.equal(remoteRef, (await net.git(0, ['-C', a, 'rev-parse', 'HEAD'])).trim());
  });

  it('the delaying proxy carries git: a host clones through it and gets the same commit', async () => {
    net = TestNet.create(1);
    work = tempWorkspace('netproxy');
    const bare = net.bareRepo('repo.git');
    const seed = path.join(work, 'seed');
    spawnSync('git', ['init', '--quiet', seed]);
    fs.writeFileSync(path.join(seed, 'f'), 'through the proxy\n');
    spawnSync('git', ['-C', seed, 'add', 'f']);
    spawnSync('git', ['-C', seed, ...gitId, 'commit', '--quiet', '-m', 'seed']);
    assert.equal(spawnSync('git', ['-C', seed, 'push', '--quiet', bare, 'HEAD:refs/heads/main']).status, 0);
    await net.startDaemon();
    const proxy = await net.startProxy(9419, 25);
    assert.equal(proxy.port, 9419);
    const clone = path.join(work, 'clone');
    await net.git(0, ['clone', '--quiet', '--branch', 'main', net.url('repo.git', 9419), clone]);
    assert.equal(fs.readFileSync(path.join(clone, 'f'), 'utf8'), 'through the proxy\n');
    await proxy.stop();
    // With the proxy gone its port refuses; the daemon's own port still answers.
    const viaProxy = await net.run(net.clientNs[0], 'git', ['ls-remote', net.url('repo.git', 9419)]);
    assert.notEqual(viaProxy.code, 0);
    assert.match(await net.git(0, ['ls-remote', net.url('repo.git')]), /refs\/heads\/main/);
  });

  it('a stopped daemon is refused at once on its host address (what the remote-down tests rely on)', async () => {
    net = TestNet.create(1);
    net.bareRepo('repo.git');
    const daemon = await net.startDaemon();
    assert.equal((await net.run(net.clientNs[0], 'git', ['ls-remote', net.url('repo.git')])).code, 0);
    await daemon.stop();
    const down = await net.run(net.clientNs[0], 'git', ['ls-remote', net.url('repo.git')], { timeoutMs: 30_000 });
    assert.notEqual(down.code, 0);
    assert.equal(down.signal, null, 'git gave up by itself, it was not killed by the timeout');
    assert.match(down.stderr, /Connection refused|unable to connect/i);
  });

  it('destroy ends the servers and deletes the namespaces; a crashed run’s namespaces and processes are removed by the next', async () => {
    net = TestNet.create(2);
    net.bareRepo('repo.git');
    const daemon = await net.startDaemon();
    const daemonPid = daemon.proc.pid!;
    net.destroy();
    assert.ok(net.gone(), 'no namespace of this net is left');
    await daemon.stop();
    assert.throws(() => process.kill(daemonPid, 0), /ESRCH/);

    // A crashed run: its creator's pid is gone, its namespace still holds a process.
    const dead = spawnSync('true').pid;
    const orphanNs = `asnet${dead}-1-srv`;
    assert.equal(spawnSync('ip', ['netns', 'add', orphanNs]).status, 0);
    const orphan = spawn('ip', ['netns', 'exec', orphanNs, 'sleep', '300'], { stdio: 'ignore', detached: true });
    orphan.unref();
    const orphanExit = new Promise((resolve) => orphan.on('exit', (_code, signal) => resolve(signal)));
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(leftoverNamespaces().includes(orphanNs));
    net = TestNet.create(1);
    assert.ok(!leftoverNamespaces().includes(orphanNs));
    assert.ok(!spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.includes(orphanNs), 'the orphan namespace is deleted');
    assert.equal(await orphanExit, 'SIGKILL');
  });
});
