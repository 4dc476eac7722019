// The audit journal (docs/agentsync-documentation.md, "Crash safety"): a batch's audit lines are written to
// .agentsync/audit-journal.json before the store is renamed into place (atomically, not fsynced), together with the
// hash of the store bytes they describe. A crash after the rename then loses no accepted action: the next writer finds the journal, sees the
// store it names is the one on disk, and appends whatever lines the audit does not have yet (so never twice).
import * as fs from 'node:fs';
import { writeFileAtomic } from '../disk/atomicFile';
import type { AuditEntry, AuditLog } from './auditLog';

interface Journal {
  /** Lines of batches known to have happened whose append was put off (git was busy); appended first. */
  confirmed?: readonly AuditEntry[];
  store_hash: string | null;
  entries: readonly AuditEntry[];
}

export class AuditJournal {
  constructor(
    private readonly file: string,
    private readonly audit: AuditLog,
  ) {}

  /** Records the lines of a batch about to write the store whose bytes hash to `storeHash`. */
  write(storeHash: string | null, entries: readonly AuditEntry[]): void {
    const confirmed = this.read()?.confirmed ?? [];
    // Not fsynced: the page cache outlives a killed process, which is the crash this guards against; a power cut may
    // lose audit lines (as before the journal) but never a store write, and a torn journal is simply dropped.
    writeFileAtomic(this.file, JSON.stringify({ confirmed, store_hash: storeHash, entries } satisfies Journal) + '\n', { durable: false });
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
  }

  /**
   * Run under the store lock before a batch. Returns how many lines were recovered, or 0; a journal whose store never
   * reached the disk (a crash before the rename) describes nothing that happened and is dropped.
   */
  recover(currentStoreHash: string | null): number {
    const journal = this.read();
    if (!journal) return 0;
    const happened = [...(journal.confirmed ?? []), ...(journal.store_hash === currentStoreHash ? journal.entries : [])];
    if (happened.length === 0) {
      this.clear();
      return 0;
    }
    try {
      const added = this.audit.appendMissing(happened);
      this.clear();
      return added;
    } catch (e) {
      // Put off again (git busy, disk full): keep what is known to have happened for the next batch.
      this.keep(happened);
      throw e;
    }
  }

  /** Keeps lines of actions that happened (refusals, or a batch whose store is on disk) for the next batch. */
  keep(entries: readonly AuditEntry[]): void {
    const confirmed = [...(this.read()?.confirmed ?? []), ...entries];
    writeFileAtomic(this.file, JSON.stringify({ confirmed, store_hash: null, entries: [] } satisfies Journal) + '\n', { durable: false });
  }

  private read(): Journal | null {
    try {
      const st = fs.lstatSync(this.file);
      if (!st.isFile() || st.size > 64 * 1024 * 1024) return null;
      const j = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Journal;
      return j && Array.isArray(j.entries) ? j : null;
    } catch {
      return null; // missing, or unreadable: it is renamed into place whole, so only a power cut tears it
    }
  }
}
