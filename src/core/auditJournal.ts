// The audit journal (docs/agentsync-documentation.md, "Crash safety"): a batch's audit lines are written to
// .agentsync/audit-journal.json before the store is renamed into place (atomically, not fsynced), together with the
// hash of the store bytes they describe. A crash after the rename then loses no accepted action: the next writer finds the journal, sees the
// store it names is the one on disk, and appends whatever lines the audit does not have yet (so never twice).
import * as fs from 'node:fs';
import { writeFileAtomic } from './atomicFile';
import type { AuditEntry, AuditLog } from './auditLog';

interface Journal {
  store_hash: string;
  entries: readonly AuditEntry[];
}

export class AuditJournal {
  constructor(
    private readonly file: string,
    private readonly audit: AuditLog,
  ) {}

  /** Records the lines of a batch about to write the store whose bytes hash to `storeHash`. */
  write(storeHash: string, entries: readonly AuditEntry[]): void {
    // Not fsynced: the page cache outlives a killed process, which is the crash this guards against; a power cut may
    // lose audit lines (as before the journal) but never a store write, and a torn journal is simply dropped.
    writeFileAtomic(this.file, JSON.stringify({ store_hash: storeHash, entries } satisfies Journal) + '\n', { durable: false });
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
  }

  /**
   * Run under the store lock before a batch. Returns how many lines were recovered, or 0; a journal whose store never
   * reached the disk (a crash before the rename) describes nothing that happened and is dropped.
   */
  recover(currentStoreHash: string | null): number {
    let journal: Journal;
    try {
      const st = fs.lstatSync(this.file);
      if (!st.isFile() || st.size > 64 * 1024 * 1024) {
        this.clear();
        return 0;
      }
      journal = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Journal;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      this.clear(); // unreadable: it is renamed into place whole, so only a power cut tears it; nothing to recover
      return 0;
    }
    let added = 0;
    if (journal && journal.store_hash === currentStoreHash && Array.isArray(journal.entries)) {
      added = this.audit.appendMissing(journal.entries);
    }
    this.clear();
    return added;
  }
}
