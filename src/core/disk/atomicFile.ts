// Atomic replace: write a temp file beside the target, fsync, rename. Never writes through a symlink.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from '../domain/errors';
import { processAlive } from './processAlive';
import { storageError } from './storageErrors';

let counter = 0;

export function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now().toString(36)}.${counter++}.tmp`);
}

/** Refuses when `target` exists and is not a regular file (a symlink, a folder, a device). */
export function assertRegularOrMissing(target: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (!st.isFile()) {
    throw new ActionError(
      'store_unsafe',
      `${target} is not a regular file (a symlink or special file); AgentSync will not write through it. Replace it with a regular file.`,
      {
        path: target,
      },
    );
  }
}

/**
 * `durable: false` skips the fsync: still atomic against a killed process (rename), but a power cut may
 * lose the new content. Only for files derived from the store, which are rebuilt on the next write.
 */
export interface AtomicWriteOptions {
  durable?: boolean;
  /** Runs after the temp file is complete, right before the rename; throwing aborts the write (the temp is removed). */
  beforeRename?: () => void;
  /** Given the temp file's stat once its bytes are written (and synced): what the file renamed into place holds. */
  written?: (st: fs.BigIntStats) => void;
}

/**
 * Writes a temp file beside `target` and renames it over. On any failure (a full disk, a read-only folder) the temp
 * file is removed, so a failed write never eats the space it could not use, and the error names its cause.
 */
export function writeFileAtomic(target: string, data: string | Buffer | Buffer[], options: AtomicWriteOptions = {}): void {
  assertRegularOrMissing(target);
  const tmp = tempNameFor(target);
  let fd: number;
  try {
    fd = fs.openSync(tmp, 'wx', 0o644);
  } catch (e) {
    throw storageError(e, target);
  }
  try {
    try {
      if (Array.isArray(data)) writeAll(fd, data);
      else fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      if (options.durable !== false) fs.fsyncSync(fd);
      if (options.written) options.written(fs.fstatSync(fd, { bigint: true }));
    } finally {
      fs.closeSync(fd);
    }
    options.beforeRename?.();
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw storageError(e, target);
  }
}

/**
 * Appends whole lines with one write (O_APPEND), refusing symlinks; used by the audit log and decisions.md.
 * `mayCreate`, asked only when the file is missing, can forbid creating it: a tracked file git is re-creating
 * (between its unlink and its create) must not be created by us, or git fails with "unable to create file".
 */
export function appendLines(target: string, text: string, sync = false, mayCreate: () => boolean = () => true): void {
  if (text.length === 0) return;
  assertRegularOrMissing(target);
  const flags = fs.constants.O_WRONLY | fs.constants.O_APPEND | (fs.constants.O_NOFOLLOW ?? 0);
  let fd: number;
  try {
    fd = fs.openSync(target, flags);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw storageError(e, target);
    if (!mayCreate()) throw new Error(`${target} is missing while git is replacing files; the lines wait for the next write`);
    try {
      fd = fs.openSync(target, flags | fs.constants.O_CREAT, 0o644);
    } catch (e2) {
      throw storageError(e2, target);
    }
  }
  try {
    fs.writeSync(fd, text);
    if (sync) fs.fsyncSync(fd);
  } catch (e) {
    throw storageError(e, target);
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes temp files left by writers that were killed (their pid is gone), e.g. `.handoffs.json.<pid>.….tmp`. */
export function removeOrphanTempFiles(dir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = /^\..+\.(\d+)\.[0-9a-z]+\.\d+\.tmp$/.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    if (processAlive(Number(m[1]))) continue; // its writer is alive
    fs.rmSync(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

/** writev in groups under IOV_MAX, looping on short writes. */
function writeAll(fd: number, chunks: Buffer[]): void {
  for (let i = 0; i < chunks.length; i += 512) {
    const group = chunks.slice(i, i + 512);
    const total = group.reduce((n, b) => n + b.length, 0);
    let written = fs.writevSync(fd, group);
    if (written < total) {
      // Rare short write: finish this group from where it stopped.
      const rest = Buffer.concat(group).subarray(written);
      while (written < total) written += fs.writeSync(fd, rest, written - (total - rest.length));
    }
  }
}
