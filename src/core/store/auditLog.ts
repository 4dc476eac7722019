// The audit log (docs/contract.md §9): one JSON line per action, accepted or refused, in .agentsync/audit/YYYY-MM.jsonl.
import * as fs from 'node:fs';
import { appendLines } from '../disk/atomicFile';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import { gitBusy, gitIndexLockPath } from '../git/gitActivity';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import { byCodeUnit } from '../domain/textOrder';

const MONTH_FILE = /^\d{4}-\d{2}\.jsonl$/;

export interface AuditEntry {
  ts: string;
  action: string;
  agent: string | null;
  handoff_id: string | null;
  uid: string | null;
  from_status: string | null;
  to_status: string | null;
  request_id: string | null;
  surface: string;
  reason: string | null;
  refused?: true;
}

export class AuditLog {
  private readonly gitIndexLock: string | null;

  constructor(private readonly layout: WorkspaceLayout) {
    this.gitIndexLock = gitIndexLockPath(layout.committedRoot);
  }

  /** Writes a batch with one append per month file. */
  append(entries: readonly AuditEntry[]): void {
    if (entries.length === 0) return;
    ensureSafeDirectory(this.layout.committedRoot, this.layout.auditDir);
    const byFile = new Map<string, string>();
    for (const e of entries) {
      const file = this.layout.auditFileFor(new Date(e.ts));
      byFile.set(file, (byFile.get(file) ?? '') + JSON.stringify(e) + '\n');
    }
    // A month file missing while git runs is one git is re-creating (see gitActivity.ts): not ours to create.
    for (const [file, text] of byFile) appendLines(file, text, false, () => !gitBusy(this.gitIndexLock));
  }

  /**
   * Appends the entries not already among the last lines of their month file (a crash may have cut off the append
   * after some or all of it was written). Returns how many were added.
   */
  appendMissing(entries: readonly AuditEntry[]): number {
    const missing = entries.filter((e) => {
      const line = JSON.stringify(e) + '\n';
      return !tailOf(this.layout.auditFileFor(new Date(e.ts)), 4 * 1024 * 1024).includes(line);
    });
    this.append(missing);
    return missing.length;
  }

  /**
   * Reads (list, show, status, health) go to .agentsync/reads.jsonl, a git-ignored runtime log: a read must not
   * change the committed audit, or every `list` would leave the working tree dirty.
   */
  appendReads(entries: readonly AuditEntry[]): void {
    if (entries.length === 0) return;
    appendLines(this.layout.readsLogFile, entries.map((e) => JSON.stringify(e) + '\n').join(''));
  }

  /**
   * The lines about one handoff, oldest first: by uid, or by id for lines written without one. At most `limit`, the
   * newest. Reads every month file (the history document, not a hot path); a line that is not JSON is skipped.
   */
  entriesFor(h: { uid?: string; handoff_id: string }, limit = 1_000): AuditEntry[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.layout.auditDir).filter((n) => MONTH_FILE.test(n));
    } catch {
      return [];
    }
    const out: AuditEntry[] = [];
    for (const n of names.sort()) {
      const file = `${this.layout.auditDir}/${n}`;
      let text: string;
      try {
        if (!fs.lstatSync(file).isFile()) continue; // never read through a link planted in the audit folder
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue; // pruned meanwhile
      }
      for (const line of text.split('\n')) {
        if (!(h.uid && line.includes(h.uid)) && !line.includes(h.handoff_id)) continue;
        try {
          const e = JSON.parse(line) as AuditEntry;
          if ((h.uid && e.uid === h.uid) || (!e.uid && e.handoff_id === h.handoff_id)) out.push(e);
        } catch {
          // a line cut off by a crash: the rest of the log still reads
        }
      }
    }
    // Month files are in order; within one, a line may be older than the one before (refusals carry the wall clock).
    return out.sort((a, b) => byCodeUnit(String(a.ts), String(b.ts))).slice(-limit);
  }

  /** Drops month files entirely older than the retention window; by default everything is kept. */
  prune(retentionDays: number | null | undefined, now = new Date()): string[] {
    if (!retentionDays) return [];
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString().slice(0, 7);
    assertSafeDirectory(this.layout.committedRoot, this.layout.auditDir); // never delete through a symlinked audit/
    let names: string[];
    try {
      names = fs.readdirSync(this.layout.auditDir);
    } catch {
      return [];
    }
    const removed = names.filter((n) => MONTH_FILE.test(n) && n.slice(0, 7) < cutoff);
    for (const n of removed) fs.rmSync(`${this.layout.auditDir}/${n}`, { force: true });
    return removed;
  }
}

/** The last `max` bytes of a regular file ('' when missing); enough to find lines a crash may have cut off. */
function tailOf(file: string, max: number): string {
  let fd: number;
  try {
    if (!fs.lstatSync(file).isFile()) return '';
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return '';
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, max);
    const buf = Buffer.alloc(length);
    fs.readSync(fd, buf, 0, length, size - length);
    return buf.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
