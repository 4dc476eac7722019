// A cross-process lock with a lease and a fencing token (docs/agentsync-documentation.md, "Guarantees").
// The lock file is created exclusively and names its holder: pid, host, pid namespace and a random token.
// The holder renews its lease (the file's mtime) while it holds the lock. Another process breaks the lock at once
// only when it can prove the holder dead: same host, same pid namespace, pid gone. Otherwise (a sandboxed agent in
// another pid namespace, another machine) it waits until the lease has expired unrenewed. Because a holder that
// was frozen past its lease may have lost the lock, it checks that the lock file is still the one it created
// (assertHeld) right before it writes.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { processAlive } from './processAlive';
import { ActionError } from '../domain/errors';

const HOST = os.hostname();
/** A lease not renewed for this long is expired: its holder is presumed gone, whoever it was. */
export const LOCK_LEASE_MS = 8_000;
/** How often a holder renews its lease. */
const RENEW_MS = 1_000;
/** A lock file holds a short line of JSON; anything larger is not one of ours and is never read whole. */
const MAX_LOCK_BYTES = 4096;
/** An empty lock file is a writer killed between create and write: expired after this long. */
const EMPTY_LOCK_MS = 1_000;

/** The pid namespace of this process ("pid:[4026531836]" on Linux); '' where there are none (macOS, Windows). */
function pidNamespace(): string {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}
const PID_NS = pidNamespace();

export interface LockOwner {
  pid: number;
  host: string;
  ns: string;
  token: string;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid !== 'number' || typeof o.host !== 'string' || typeof o.ns !== 'string' || typeof o.token !== 'string') return null;
    return { pid: o.pid, host: o.host, ns: o.ns, token: o.token };
  } catch {
    return null;
  }
}

function describeType(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device file';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function notALock(file: string, what: string): ActionError {
  return new ActionError(
    'store_unsafe',
    `${file} is ${what}, not a lock file AgentSync wrote; AgentSync will not open, follow or read it, and no data depends on it. ` +
      'Replace it: remove that entry (never its target), then retry.',
    { path: file },
  );
}

interface LockState {
  owner: LockOwner | null;
  /** Identity of the lock file seen: a breaker removes the file only if it is still this one. */
  ino: number;
  size: number;
  mtimeMs: number;
}

/**
 * Reads a lock file without trusting it: never follows a symlink, never blocks (a FIFO), never reads more than
 * MAX_LOCK_BYTES (a device), and refuses anything that is not a regular file. null when there is no lock file.
 */
export function readLockFile(file: string): LockState | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP' || code === 'EMLINK') throw notALock(file, 'a symbolic link');
    let st: fs.Stats | null = null;
    try {
      st = fs.lstatSync(file);
    } catch {
      return null;
    }
    if (!st.isFile()) throw notALock(file, describeType(st));
    throw new ActionError('store_unsafe', `${file} cannot be opened (${code ?? (e as Error).message}); check its permissions and retry.`, {
      path: file,
    });
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw notALock(file, describeType(st));
    const buf = Buffer.alloc(MAX_LOCK_BYTES);
    const n = st.size > MAX_LOCK_BYTES ? 0 : fs.readSync(fd, buf, 0, MAX_LOCK_BYTES, 0);
    return { owner: parseOwner(buf.subarray(0, n).toString('utf8')), ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether the lock may be broken now: its holder is proven dead, or its lease expired unrenewed. */
function isStale(state: LockState, now = Date.now()): boolean {
  const age = now - state.mtimeMs;
  if (age > LOCK_LEASE_MS) return true;
  const o = state.owner;
  if (!o) return state.size === 0 && age > EMPTY_LOCK_MS;
  // Only in our own pid namespace on our own host does a pid name the same process.
  return o.host === HOST && o.ns === PID_NS && o.pid !== process.pid && !processAlive(o.pid);
}

function describeHolder(state: LockState | null): string {
  const o = state?.owner;
  if (!o) return 'an unreadable lock file';
  const where =
    o.host === HOST
      ? o.ns === PID_NS
        ? 'this machine'
        : 'this machine, another pid namespace (a sandbox or container)'
      : 'another machine';
  return `pid ${o.pid} on ${where}`;
}

function tryCreate(file: string, owner: LockOwner): number | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw e;
  }
  try {
    fs.writeSync(fd, JSON.stringify(owner));
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw e;
  }
  return fd;
}

/** Removes a stale lock, guarded by a second lock so two breakers cannot remove a fresh lock by mistake. */
function breakStale(file: string, seen: LockState): void {
  const guard = `${file}.break`;
  const guardFd = tryCreate(guard, { pid: process.pid, host: HOST, ns: PID_NS, token: randomBytes(8).toString('hex') });
  if (guardFd === null) {
    const g = readLockFile(guard);
    if (g && isStale(g)) fs.rmSync(guard, { force: true });
    return;
  }
  try {
    // Still the same file, still not renewed: then nobody holds it.
    const now = readLockFile(file);
    if (now && now.ino === seen.ino && now.mtimeMs === seen.mtimeMs && isStale(now)) fs.rmSync(file, { force: true });
  } finally {
    fs.closeSync(guardFd);
    fs.rmSync(guard, { force: true });
  }
}

export class FileLock {
  private fd: number | null = null;
  private ino = -1;
  private dev = -1;
  private renewer: NodeJS.Timeout | null = null;

  constructor(
    readonly file: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Waits (with short randomized sleeps) until the lock is ours or the timeout passes. */
  async acquire(): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    let wait = 1;
    // This process fences by inode (stillOurs). The token stays in the file: earlier AgentSync versions sharing the
    // folder read a lock file without one as unreadable, and then could not break it at once when its holder died.
    const owner = { pid: process.pid, host: HOST, ns: PID_NS, token: randomBytes(16).toString('hex') };
    for (;;) {
      const fd = tryCreate(this.file, owner);
      if (fd !== null) {
        this.hold(fd);
        return;
      }
      const cur = readLockFile(this.file);
      if (cur && isStale(cur)) {
        breakStale(this.file, cur);
        continue;
      }
      if (Date.now() > deadline) {
        const renewed = cur ? `; its lease was renewed ${Math.max(0, Math.round((Date.now() - cur.mtimeMs) / 1000))} s ago` : '';
        throw new ActionError(
          'lock_timeout',
          `Timed out after ${this.timeoutMs} ms waiting for ${this.file}, held by ${describeHolder(cur)}${renewed}. ` +
            `Another AgentSync process is writing; retry in a moment. A holder that stops renewing its lease loses it after ${LOCK_LEASE_MS / 1000} s.`,
          { holder: cur?.owner ? { pid: cur.owner.pid, host: cur.owner.host } : null },
        );
      }
      await new Promise((r) => setTimeout(r, wait + Math.random() * wait));
      wait = Math.min(wait * 2, 20);
    }
  }

  private hold(fd: number): void {
    this.fd = fd;
    const st = fs.fstatSync(fd);
    this.ino = st.ino;
    this.dev = st.dev;
    this.renewer = setInterval(() => this.renew(), RENEW_MS);
    this.renewer.unref();
  }

  /** Moves the lease forward (the mtime of the file we created; a file that replaced it is not touched). */
  private renew(): void {
    if (this.fd === null) return;
    try {
      const now = new Date();
      fs.futimesSync(this.fd, now, now);
    } catch {
      // A renewal that fails shows up as an expired lease, and assertHeld refuses the write.
    }
  }

  /**
   * The fencing check: call right before a write that the lock protects. Throws `lock_lost` when the lock file is
   * no longer ours (another process broke it after our lease expired, e.g. while this one was frozen); the caller
   * then writes nothing. Renews the lease when it passes.
   */
  assertHeld(): void {
    if (this.fd === null)
      throw new ActionError('lock_lost', `${this.file} is not held by this process; nothing was written. Retry the request.`);
    if (!this.stillOurs()) {
      throw new ActionError(
        'lock_lost',
        `This process lost ${this.file} while it worked (its lease was not renewed for over ${LOCK_LEASE_MS / 1000} s, so another process took ` +
          'the lock); nothing of this batch was written. Retry the request.',
      );
    }
    this.renew();
  }

  /**
   * Whether the path still names the file we created. One lstat, no read: while our descriptor is open its inode
   * cannot be freed and reused, so the same inode number is the same file, with our token in it.
   */
  private stillOurs(): boolean {
    try {
      const st = fs.lstatSync(this.file);
      return st.isFile() && st.ino === this.ino && st.dev === this.dev;
    } catch {
      return false;
    }
  }

  release(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = null;
    try {
      // Removed only while it is still ours (checked before closing, see stillOurs): after a takeover it belongs to
      // the new holder.
      if (this.stillOurs()) fs.rmSync(this.file, { force: true });
    } catch {
      // cannot be removed (e.g. the folder's permissions): the lease expires by itself
    } finally {
      this.fd = null;
      fs.closeSync(fd);
    }
  }
}
