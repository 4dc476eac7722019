// The audit log (DESIGN §9): one JSON line per action, accepted or refused, in .agentsync/audit/YYYY-MM.jsonl.
import * as fs from 'node:fs';
import { appendLines } from './atomicFile';
import { assertSafeDirectory, ensureSafeDirectory } from './safeDirectory';
import type { WorkspaceLayout } from './workspaceLayout';

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
  constructor(private readonly layout: WorkspaceLayout) {}

  /** Writes a batch with one append per month file. */
  append(entries: readonly AuditEntry[]): void {
    if (entries.length === 0) return;
    ensureSafeDirectory(this.layout.root, this.layout.auditDir);
    const byFile = new Map<string, string>();
    for (const e of entries) {
      const file = this.layout.auditFileFor(new Date(e.ts));
      byFile.set(file, (byFile.get(file) ?? '') + JSON.stringify(e) + '\n');
    }
    for (const [file, text] of byFile) appendLines(file, text);
  }

  /** Drops month files entirely older than the retention window; by default everything is kept. */
  prune(retentionDays: number | null | undefined, now = new Date()): string[] {
    if (!retentionDays) return [];
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString().slice(0, 7);
    assertSafeDirectory(this.layout.root, this.layout.auditDir); // never delete through a symlinked audit/
    let names: string[];
    try {
      names = fs.readdirSync(this.layout.auditDir);
    } catch {
      return [];
    }
    const removed = names.filter((n) => /^\d{4}-\d{2}\.jsonl$/.test(n) && n.slice(0, 7) < cutoff);
    for (const n of removed) fs.rmSync(`${this.layout.auditDir}/${n}`, { force: true });
    return removed;
  }
}
