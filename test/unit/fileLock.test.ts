// FileLock: mutual exclusion between acquirers, a lock left by a dead process broken at once, lock_timeout while
// a live foreign process holds it (a real `sleep` child whose pid is written into the lock file).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileLock } from '../../src/core/fileLock';
import { handoffIn } from './helpers/handoffFixtures';
import { makeTempDir, removeTempDirs, TestWorkspace } from './helpers/testWorkspace';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  assert.ok(r.pid && r.pid > 0);
  return r.pid!;
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
    await sleep(150);
    assert.equal(bHas, false, 'b must not get the lock while a holds it');
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^${process.pid} `));
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
    fs.writeFileSync(file, `${deadPid()} ${os.hostname()} ${Date.now()}`);
    // A 200 ms timeout: if the stale lock were waited out instead of broken, this would throw lock_timeout.
    await new FileLock(file, 200).acquire();
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^${process.pid} `));
  });

  it('an empty lock file (its writer died between create and write) is broken once it is a moment old', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    fs.writeFileSync(file, '');
    const old = new Date(Date.now() - 5_000);
    fs.utimesSync(file, old, old);
    await new FileLock(file, 200).acquire();
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^${process.pid} `));
  });

  it('a lock held by a live foreign process: lock_timeout naming the holder, the lock left alone', async () => {
    const child = liveSleeper();
    children.push(child);
    const file = path.join(makeTempDir(), 'x.lock');
    const content = `${child.pid} ${os.hostname()} ${Date.now()}`;
    fs.writeFileSync(file, content);
    const started = Date.now();
    await assert.rejects(new FileLock(file, 300).acquire(), (e: Error & { reason?: string }) => {
      assert.equal(e.reason, 'lock_timeout');
      assert.match(e.message, new RegExp(`Timed out after 300 ms waiting for .*x\\.lock \\(held by ${child.pid} `));
      assert.match(e.message, /delete that file and retry/);
      return true;
    });
    assert.ok(Date.now() - started >= 300, 'it waited for the timeout');
    assert.equal(fs.readFileSync(file, 'utf8'), content, 'a live holder\'s lock is never broken');

    // Once the holder dies, the same lock is broken at once.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await new FileLock(file, 200).acquire();
  });

  it('a lock from another host is not broken while fresh', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    fs.writeFileSync(file, `1 some-other-host-${process.pid} ${Date.now()}`);
    await assert.rejects(new FileLock(file, 150).acquire(), (e: Error & { reason?: string }) => e.reason === 'lock_timeout');
  });

  it('a lock from another host is broken once it is older than 30 s (its liveness cannot be checked)', async () => {
    const file = path.join(makeTempDir(), 'x.lock');
    fs.writeFileSync(file, `1 some-other-host-${process.pid} ${Date.now() - 31_000}`);
    await new FileLock(file, 200).acquire();
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^${process.pid} `));
  });

  it('through the dispatcher: a request that cannot get the lock is refused with lock_timeout and changes nothing', async () => {
    const child = liveSleeper();
    children.push(child);
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')], lockTimeoutMs: 200 });
    const bytes = ws.storeBytes();
    fs.writeFileSync(ws.layout.lockFile, `${child.pid} ${os.hostname()} ${Date.now()}`);
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
