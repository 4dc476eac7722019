// FileLock: mutual exclusion between acquirers, a lock left by a dead process (same host, same pid namespace) broken
// at once, lock_timeout while a live foreign process holds it (a real `sleep` child whose pid is written into the
// lock file), a holder in another pid namespace left alone until its lease expires, the fencing check (assertHeld),
// and a lock path that is a FIFO, a device link or a link to a secret: refused at once, never read or printed.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileLock, LOCK_LEASE_MS } from '../../../../src/core/disk/fileLock';
import { handoffIn } from '../../helpers/handoffFixtures';
import { makeTempDir, removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  assert.ok(r.pid && r.pid > 0);
  return r.pid;
}

const PID_NS = (() => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
})();

/** A lock file as another process would write it (defaults: this host, this pid namespace). */
function lockText(pid: number, over: { host?: string; ns?: string; token?: string } = {}): string {
  return JSON.stringify({ pid, host: over.host ?? os.hostname(), ns: over.ns ?? PID_NS, token: over.token ?? 'their-token' });
}

const heldByUs = (file: string) => assert.equal((JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number }).pid, process.pid);

function setAge(file: string, ageMs: number): void {
  const t = new Date(Date.now() - ageMs);
  fs.utimesSync(file, t, t);
}

function liveSleeper(): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  assert.ok(child.pid);
  return child;
}

describe('FileLock', () => {
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) c.kill('SIGKILL');
    removeTempDirs();
  });

  it('two acquirers in one process: the second waits until the first releases', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    const a = new FileLock(file, 2_000);
    const b = new FileLock(file, 2_000);
    await a.acquire();
    let bHas = false;
    const waiting = b.acquire().then(() => (bHas = true));
    await sleep(150); // the subject: b keeps waiting (it polls; nothing announces a failed try)
    assert.equal(bHas, false, 'b must not get the lock while a holds it');
    heldByUs(file);
    a.release();
    await waiting;
    assert.equal(bHas, true);
    b.release();
    assert.equal(fs.existsSync(file), false, 'released means the file is gone');
  });

  it('many acquirers: never two inside the critical section at once', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    let inside = 0;
    let maxInside = 0;
    let done = 0;
    const worker = async () => {
      const lock = new FileLock(file, 10_000);
      for (let i = 0; i < 10; i++) {
        await lock.acquire();
        inside++;
        maxInside = Math.max(maxInside, inside);
        await sleep(1);
        inside--;
        done++;
        lock.release();
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    assert.equal(done, 60);
    assert.equal(maxInside, 1);
  });

  it('release without acquire does not remove a lock someone else holds', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    const holder = new FileLock(file);
    await holder.acquire();
    new FileLock(file).release();
    assert.equal(fs.existsSync(file), true);
    holder.release();
  });

  it('a lock left by a dead process on this host is broken at once', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    fs.writeFileSync(file, lockText(deadPid()));
    // A 200 ms timeout: if the stale lock were waited out instead of broken, this would throw lock_timeout.
    await new FileLock(file, 200).acquire();
    heldByUs(file);
  });

  it('an empty lock file (its writer died between create and write) is broken once it is a moment old', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    fs.writeFileSync(file, '');
    const old = new Date(Date.now() - 5_000);
    fs.utimesSync(file, old, old);
    await new FileLock(file, 200).acquire();
    heldByUs(file);
  });

  it('a lock held by a live foreign process: lock_timeout naming the holder, the lock left alone', async () => {
    const child = liveSleeper();
    children.push(child);
    const file = path.join(makeTempDir(), 'x.lock');
    const content = lockText(child.pid!);
    fs.writeFileSync(file, content);
    const started = Date.now();
    await assert.rejects(new FileLock(file, 300).acquire(), (e: Error & { reason?: string }) => {
      assert.equal(e.reason, 'lock_timeout');
      assert.match(e.message, new RegExp(`Timed out after 300 ms waiting for .*x\\.lock, held by pid ${child.pid} on this machine`));
      assert.doesNotMatch(e.message, /delete|remove/i, 'deleting a live lock loses data: never advised');
      return true;
    });
    assert.ok(Date.now() - started >= 300, 'it waited for the timeout');
    assert.equal(fs.readFileSync(file, 'utf8'), content, "a live holder's lock is never broken");

    // Once the holder dies, the same lock is broken at once.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await new FileLock(file, 200).acquire();
  });

  it('a lock from another host is not broken while fresh', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    fs.writeFileSync(file, lockText(1, { host: `some-other-host-${process.pid}` }));
    await assert.rejects(new FileLock(file, 150).acquire(), (e: Error & { reason?: string }) => e.reason === 'lock_timeout');
  });

  it('a holder in another pid namespace (its pid means nothing here) is not broken while its lease is fresh', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    const content = lockText(deadPid(), { ns: 'pid:[4026599999]' });
    fs.writeFileSync(file, content);
    await assert.rejects(new FileLock(file, 300).acquire(), (e: Error & { reason?: string }) => {
      assert.equal(e.reason, 'lock_timeout');
      assert.match(e.message, /another pid namespace/);
      return true;
    });
    assert.equal(fs.readFileSync(file, 'utf8'), content);
  });

  it('any lock whose lease expired unrenewed is broken (another host, another namespace, or a reused live pid)', async () => {
    const child = liveSleeper();
    children.push(child);
    for (const text of [
      lockText(1, { host: `other-host-${process.pid}` }),
      lockText(deadPid(), { ns: 'pid:[4026599999]' }),
      lockText(child.pid!),
    ]) {
      const file = path.join(makeTempDir(), 'x.lock');
      fs.writeFileSync(file, text);
      setAge(file, LOCK_LEASE_MS + 1_000);
      const lock = new FileLock(file, 200);
      await lock.acquire();
      heldByUs(file);
      lock.release();
    }
  });

  it('a holder renews its lease while it holds the lock', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    const lock = new FileLock(file);
    await lock.acquire();
    setAge(file, LOCK_LEASE_MS - 500);
    await sleep(1_300); // the subject: the renewal timer
    assert.ok(Date.now() - fs.statSync(file).mtimeMs < 1_500, 'the lease was renewed');
    lock.release();
  });

  it('fencing: a holder whose lock was taken over writes nothing (assertHeld throws lock_lost)', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    const first = new FileLock(file);
    await first.acquire();
    first.assertHeld();
    // The first holder froze past its lease; a second process broke the lock and holds it now.
    fs.rmSync(file);
    const second = new FileLock(file, 200);
    await second.acquire();
    assert.throws(
      () => first.assertHeld(),
      (e: Error & { reason?: string }) => e.reason === 'lock_lost' && !/delete/i.test(e.message),
    );
    first.release();
    assert.ok(fs.existsSync(file), "releasing a lost lock leaves the new holder's lock alone");
    second.assertHeld();
    second.release();
    assert.equal(fs.existsSync(file), false);
  });

  it('fencing through the store: a batch whose lock was stolen before the write is refused and writes nothing', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    const bytes = ws.storeBytes();
    const store = { lock: (ws.store as unknown as { local: { lock: { current: FileLock } } }).local.lock.current };
    const original = store.lock.assertHeld.bind(store.lock);
    let stolen = false;
    store.lock.assertHeld = () => {
      if (!stolen) {
        stolen = true;
        // Another process took the lock over in the middle of this batch.
        fs.rmSync(ws.layout.lockFile);
        fs.writeFileSync(ws.layout.lockFile, lockText(1, { ns: 'pid:[4026599999]', token: 'thief' }));
      }
      original();
    };
    const res = await ws.dispatch({ action: 'claimHandoff', request_id: 'fenced-1', handoffId: 'HO-20260221-001', agent: 'claude' });
    assert.equal(res.ok, false);
    assert.equal(res.reason, 'lock_lost');
    assert.deepEqual(ws.storeBytes(), bytes, 'nothing of the batch was written');
    assert.equal(
      (JSON.parse(fs.readFileSync(ws.layout.lockFile, 'utf8')) as { token: string }).token,
      'thief',
      "the thief's lock is not removed",
    );
  });

  for (const [what, make] of [
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a symlink to /dev/zero', (file: string) => fs.symlinkSync('/dev/zero', file)],
    [
      'a symlink to a secret file',
      (file: string) => {
        const secret = path.join(path.dirname(file), 'secret.txt');
        fs.writeFileSync(secret, 'TOP-SECRET-CONTENT');
        fs.symlinkSync(secret, file);
      },
    ],
  ] as const) {
    it(`the lock path is ${what}: refused at once with store_unsafe, never opened for reading, nothing printed from it`, async () => {
      const file = path.join(makeTempDir(), 'x.lock');
      make(file);
      const started = Date.now();
      await assert.rejects(new FileLock(file, 5_000).acquire(), (e: Error & { reason?: string }) => {
        assert.equal(e.reason, 'store_unsafe');
        assert.match(e.message, /not a lock file AgentSync wrote/);
        assert.doesNotMatch(e.message, /TOP-SECRET/);
        return true;
      });
      assert.ok(Date.now() - started < 2_000, 'no hang, no waiting for the timeout');
      assert.ok(fs.lstatSync(file), 'the entry is left for the user (nothing deleted behind their back)');
    });
  }

  it('through the dispatcher: a request that cannot get the lock is refused with lock_timeout and changes nothing', async () => {
    const child = liveSleeper();
    children.push(child);
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')], lockTimeoutMs: 200 });
    const bytes = ws.storeBytes();
    fs.writeFileSync(ws.layout.lockFile, lockText(child.pid!));
    const res = await ws.dispatch({ action: 'claimHandoff', request_id: 'locked-1', handoffId: 'HO-20260221-001', agent: 'claude' });
    assert.equal(res.ok, false);
    assert.equal(res.reason, 'lock_timeout');
    assert.equal(res.request_id, 'locked-1');
    assert.deepEqual(ws.storeBytes(), bytes);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // The holder is gone: the same request now goes through (it was not ledgered as answered).
    const retry = await ws.dispatch({ action: 'claimHandoff', request_id: 'locked-1', handoffId: 'HO-20260221-001', agent: 'claude' });
    assert.equal(retry.ok, true, JSON.stringify(retry));
  });
});
