// Reading a claimed request file without trusting it: lstat first (a symlink or special file is never opened, a
// file over the cap is never read), then open with O_NOFOLLOW|O_NONBLOCK and check the opened file is the one
// that was checked, and read at most cap+1 bytes.
import * as fs from 'node:fs';
import type { RefusalReason } from '../domain/errors';

export type Intake =
  | { kind: 'text'; text: string; mtimeMs: number; size: number }
  /** Answered with a refusal, then the claimed entry is removed (a symlink itself, never its target). */
  | { kind: 'refuse'; reason: RefusalReason; message: string }
  /** Cannot be answered meaningfully (a folder, unreadable): moved to requests/rejected/ with a note. */
  | { kind: 'reject'; why: string };

function describeType(st: fs.Stats): string | null {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device file';
  return null;
}

export function readRequestFile(file: string, shownName: string, maxBytes: number): Intake {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    return { kind: 'reject', why: `could not inspect it: ${(e as Error).message}` };
  }
  if (st.isDirectory()) return { kind: 'reject', why: `${shownName} is a folder, not a request file` };
  const special = describeType(st);
  if (special) {
    return {
      kind: 'refuse',
      reason: 'unsafe_file',
      message:
        `${shownName} is ${special}; the drop zone never follows or opens those. Write the request as a regular file (write it to a temporary name ` +
        `outside requests/, then rename it in). It was removed; nothing else was changed.`,
    };
  }
  if (st.size > maxBytes) return tooLarge(shownName, st.size, maxBytes);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      return {
        kind: 'refuse',
        reason: 'unsafe_file',
        message: `${shownName} became a symbolic link while it was read; it was removed, nothing else was changed.`,
      };
    return { kind: 'reject', why: `could not open it (${code ?? (e as Error).message}); check its permissions` };
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile() || opened.ino !== st.ino)
      return {
        kind: 'refuse',
        reason: 'unsafe_file',
        message: `${shownName} was replaced while it was read; write each request once, under a new name.`,
      };
    const buf = Buffer.alloc(Math.min(maxBytes + 1, Math.max(opened.size, 0) + 1));
    let n = 0;
    for (;;) {
      const r = fs.readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
      if (n === buf.length) {
        if (n > maxBytes) return tooLarge(shownName, n, maxBytes);
        break; // grew while being read: what was there when it was claimed is the request (a partial write is caught later)
      }
    }
    let text = buf.subarray(0, n).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { kind: 'text', text, mtimeMs: opened.mtimeMs, size: n };
  } catch (e) {
    return { kind: 'reject', why: `could not read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  } finally {
    fs.closeSync(fd);
  }
}

function tooLarge(name: string, size: number, max: number): Intake {
  return {
    kind: 'refuse',
    reason: 'too_large',
    message: `${name} is ${size} bytes, over the ${max}-byte limit for a request; it was not read. Send less (large text belongs in files the handoff names).`,
  };
}
