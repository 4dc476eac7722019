// Atomic replace: write a temp file beside the target, fsync, rename. Never writes through a symlink.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from './errors';

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
    throw new ActionError('store_unsafe', `${target} is not a regular file (a symlink or special file); AgentSync will not write through it. Replace it with a regular file.`, {
      path: target,
    });
  }
}

export function writeFileAtomic(target: string, data: string | Buffer): void {
  assertRegularOrMissing(target);
  const tmp = tempNameFor(target);
  const fd = fs.openSync(tmp, 'wx', 0o644);
  try {
    fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Appends whole lines with one write (O_APPEND), refusing symlinks; used by the audit log and decisions.md. */
export function appendLines(target: string, text: string, sync = false): void {
  if (text.length === 0) return;
  assertRegularOrMissing(target);
  const fd = fs.openSync(target, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    fs.writeSync(fd, text);
    if (sync) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
