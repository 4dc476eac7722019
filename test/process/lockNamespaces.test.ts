// The store lock against a real holder in another pid namespace (a sandboxed agent, run with `unshare`): its pid
// names nothing (or someone else) outside, so the lock must not be broken on the pid while the holder renews its
// lease. The holder runs at a pid that is dead in this namespace, which a pid-only liveness check took for dead.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileLock } from '../../src/core/disk/fileLock';
import { FIXTURES, startChild, tempWorkspace, type Child } from './processHarness';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

describe('FileLock across pid namespaces (a real holder under unshare)', function () {
  this.timeout(60_000);
  let holder: Child | null = null;
  afterEach(() => holder?.proc.kill('SIGKILL'));

  it('a live holder whose pid is dead here is not broken; once it releases, the lock is free', async () => {
    const probe = spawnSync('unshare', ['-Urpf', '--mount-proc', 'true']);
    assert.equal(probe.status, 0, `this test needs unprivileged pid namespaces (unshare -Urpf): ${probe.stderr.toString()}`);
    // The holder's pid inside its namespace: one that no process here has, so "is that pid alive?" answers no.
    let target = 150;
    while (alive(target)) target++;
    const file = path.join(tempWorkspace('nslock'), 'handoffs.lock');
    // In a fresh namespace pids count up from 1 (sh); each `true` takes the next, then node gets `target`.
    const script =
      `i=2; while [ $i -lt ${target} ]; do /bin/true; i=$((i+1)); done; "${process.execPath}" "${path.join(FIXTURES, 'lockHolder.js')}" "${file}" ` +
      `4000`;
    holder = startChild('unshare', ['-Urpf', '--mount-proc', 'sh', '-c', script], { command: true });
    const held = await holder.waitForLine((l) => l.startsWith('HELD '), 30_000, 'the namespaced holder to take the lock');
    const [, pidText, ns] = held.split(' ');
    assert.equal(Number(pidText), target, 'the holder runs at the chosen pid inside its namespace');
    assert.notEqual(ns, fs.readlinkSync('/proc/self/ns/pid'), 'the holder is in another pid namespace');
    assert.equal(alive(target), false, 'that pid is dead here');

    await assert.rejects(new FileLock(file, 1_500).acquire(), (e: Error & { reason?: string }) => {
      assert.equal(e.reason, 'lock_timeout', e.message);
      assert.match(e.message, /another pid namespace/);
      return true;
    });
    assert.equal(holder.lines.includes('RELEASED'), false, 'the holder still held it the whole time');

    await holder.waitForLine((l) => l === 'RELEASED', 10_000, 'the holder to release');
    const lock = new FileLock(file, 2_000);
    await lock.acquire();
    lock.release();
  });
});
