// A cross-process lock: a lock file created with O_EXCL holding "pid host time".
// A lock whose process is gone (same host) is broken at once, so a killed writer never blocks the others for long.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { ActionError } from './errors';

const HOST = os.hostname();
/** A lock from another host cannot be checked for liveness; it is treated as stale after this long. */
const FOREIGN_STALE_MS = 30_000;

interface LockOwner {
  pid: number;
  host: string;
  at: number;
}

function parseOwner(text: string): LockOwner | null {
  const [pid, host, at] = text.trim().split(' ');
  if (!pid || !host || !at) return null;
  return { pid: Number(pid), host, at: Number(at) };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(file: string): boolean {
  try {
    const fd = fs.openSync(file, 'wx', 0o644);
    fs.writeSync(fd, `${process.pid} ${HOST} ${Date.now()}`);
    fs.closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

function readOwner(file: string): { text: string; owner: LockOwner | null } | null {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return { text, owner: parseOwner(text) };
  } catch {
    return null;
  }
}

function isStale(owner: LockOwner | null, text: string, file: string): boolean {
  if (!owner) {
    // Half-written lock file (its writer died between open and write): stale once it is a moment old.
    try {
      return text.length === 0 && Date.now() - fs.statSync(file).mtimeMs > 1_000;
    } catch {
      return false;
    }
  }
  if (owner.host === HOST) return owner.pid !== process.pid && !processAlive(owner.pid);
  return Date.now() - owner.at > FOREIGN_STALE_MS;
}

/** Removes a stale lock, guarded by a second lock so two breakers cannot remove a fresh lock by mistake. */
function breakStale(file: string, staleText: string): void {
  const guard = `${file}.break`;
  if (!tryCreate(guard)) {
    const g = readOwner(guard);
    if (g && isStale(g.owner, g.text, guard)) fs.rmSync(guard, { force: true });
    return;
  }
  try {
    const now = readOwner(file);
    if (now && now.text === staleText) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

export class FileLock {
  private held = false;

  constructor(
    readonly file: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Waits (with short randomized sleeps) until the lock is ours or the timeout passes. */
  async acquire(): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    let wait = 1;
    for (;;) {
      if (tryCreate(this.file)) {
        this.held = true;
        return;
      }
      const cur = readOwner(this.file);
      if (cur && isStale(cur.owner, cur.text, this.file)) {
        breakStale(this.file, cur.text);
        continue;
      }
      if (Date.now() > deadline) {
        throw new ActionError(
          'lock_timeout',
          `Timed out after ${this.timeoutMs} ms waiting for ${this.file} (held by ${cur?.text.trim() || 'unknown'}). If no AgentSync process is running, delete that file and retry.`,
        );
      }
      await new Promise((r) => setTimeout(r, wait + Math.random() * wait));
      wait = Math.min(wait * 2, 20);
    }
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    fs.rmSync(this.file, { force: true });
  }
}
