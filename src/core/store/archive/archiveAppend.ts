// Appends handoffs to the archive's month files (docs/agentsync-documentation.md, "The archive"), durably, before
// the store lets go of them: a crash at any point leaves every record in the store, in the archive, or in both,
// never in neither. The next archive pass repairs "both" without a journal: the lines a killed pass already wrote
// are the last ones of their file, so a record whose exact line ends the file is not appended again, and a line
// the kill cut short (no newline yet) is cut off, since its record is still in the store.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertRegularOrMissing } from '../../disk/atomicFile';
import { storageError } from '../../disk/storageErrors';
import type { Handoff } from '../../domain/handoffSchema';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { archiveLine, parseArchiveLine } from './archiveLine';
import { archiveFileOf, archiveMonthOf } from './archiveMonth';

export interface AppendReport {
  /** Lines written now. */
  appended: number;
  /** Records whose line a killed pass had already written. */
  alreadyArchived: number;
  /** Files whose last line a kill had cut short, and which were cut back to their last whole line. */
  repairedFiles: string[];
}

const NEWLINE = 0x0a;

/** Appends one line per record to its month's file and fsyncs each file; returns what it did. */
export function appendToArchive(layout: WorkspaceLayout, records: readonly Handoff[]): AppendReport {
  const byMonth = new Map<string, Handoff[]>();
  for (const h of records) {
    const month = archiveMonthOf(h);
    const group = byMonth.get(month);
    if (group) group.push(h);
    else byMonth.set(month, [h]);
  }
  const report: AppendReport = { appended: 0, alreadyArchived: 0, repairedFiles: [] };
  for (const [month, group] of [...byMonth].sort(([a], [b]) => (a < b ? -1 : 1))) {
    appendMonth(archiveFileOf(layout, month), group, report);
  }
  return report;
}

function appendMonth(file: string, group: readonly Handoff[], report: AppendReport): void {
  assertRegularOrMissing(file);
  const created = !fs.existsSync(file);
  const flags = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);
  let fd: number;
  try {
    fd = fs.openSync(file, flags, 0o644);
  } catch (e) {
    throw storageError(e, file);
  }
  try {
    let size = fs.fstatSync(fd).size;
    const wholeTo = lastWholeLineEnd(fd, size);
    if (wholeTo < size) {
      // A last line without its newline: a kill cut it (a strict prefix of a one-object line never parses), or a hand
      // wrote a whole record and no newline, which is kept.
      const tail = Buffer.alloc(size - wholeTo);
      fs.readSync(fd, tail, 0, tail.length, wholeTo);
      if (parseArchiveLine(tail.toString('utf8'))) {
        writeWhole(fd, Buffer.from('\n'));
        size += 1;
      } else {
        fs.ftruncateSync(fd, wholeTo);
        size = wholeTo;
        report.repairedFiles.push(path.basename(file));
      }
    }
    const lines = group.map(archiveLine);
    const present = tailLines(
      fd,
      size,
      lines.reduce((n, l) => n + Buffer.byteLength(l), 0),
    );
    const fresh = lines.filter((l) => !present.has(l.slice(0, -1)));
    report.alreadyArchived += lines.length - fresh.length;
    if (fresh.length) writeWhole(fd, Buffer.from(fresh.join('')));
    fs.fsyncSync(fd);
    report.appended += fresh.length;
  } catch (e) {
    throw storageError(e, file);
  } finally {
    fs.closeSync(fd);
  }
  if (created) fsyncDirectory(path.dirname(file));
}

/** The offset just past the file's last newline (0 when it has none): where its whole lines end. */
function lastWholeLineEnd(fd: number, size: number): number {
  const block = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - block.length);
    const n = fs.readSync(fd, block, 0, end - start, start);
    const at = block.subarray(0, n).lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * The whole lines among the last `bytes` bytes of the file (plus the one byte before them, to know whether the
 * first starts a line). A killed pass wrote a subset of what this pass writes, so they all fall inside.
 */
function tailLines(fd: number, size: number, bytes: number): Set<string> {
  if (size === 0) return new Set();
  const start = Math.max(0, size - bytes - 1);
  const buf = Buffer.alloc(size - start);
  fs.readSync(fd, buf, 0, buf.length, start);
  const lines = buf.toString('utf8').split('\n');
  if (start > 0) lines.shift(); // cut at an arbitrary byte: the first piece may be the end of an older line
  return new Set(lines.filter((l) => l.length > 0));
}

function writeWhole(fd: number, buf: Buffer): void {
  for (let done = 0; done < buf.length;) done += fs.writeSync(fd, buf, done, buf.length - done);
}

/** Makes a new file's name durable too; folders cannot be opened for fsync on Windows, where this is skipped. */
function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // best effort: the data itself is fsynced
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
