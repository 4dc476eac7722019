// The archive pass (docs/agentsync-documentation.md, "The archive"): under the store lock, right before a batch writes
// handoffs.json, merged and escalated handoffs finished more than `archive.after_days` ago move to the archive. The
// lines are appended and fsynced first; only then does the store, written next, let go of them (crash-safe order:
// archiveAppend.ts). A record with unresolved merge conflicts stays until a human has cleared them. The candidates
// are picked from the store as the batch read it, and a record the batch itself changed is left for the next write:
// the archive only ever holds a version of a record that handoffs.json held first.
import { isTerminal, type Handoff } from '../../domain/handoffSchema';
import { ensureSafeDirectory } from '../../disk/safeDirectory';
import type { AgentSyncConfig } from '../../domain/configSchema';
import type { StoreSnapshot } from '../storeSnapshot';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { appendToArchive, type AppendReport } from './archiveAppend';

const DAY_MS = 86_400_000;

/** The records due for the archive at `now`: terminal, without open conflicts, last changed over after_days ago. */
export function dueForArchive(handoffs: readonly Handoff[], config: AgentSyncConfig, now: Date): Handoff[] {
  const days = config.archive.after_days;
  if (days === null) return [];
  const cutoff = now.getTime() - days * DAY_MS;
  return handoffs.filter((h) => isTerminal(h.status) && !h.conflicts?.length && Date.parse(h.updated_at) <= cutoff);
}

/**
 * Moves `candidates` (dueForArchive of the store as read) out of `snapshot`, skipping any the batch has replaced
 * since; the caller writes the store next. Best effort: when it fails, the records simply stay in the store (and
 * maybe also in the archive, which the next pass repairs), and the next write tries again.
 */
export function archiveDue(
  layout: WorkspaceLayout,
  snapshot: StoreSnapshot,
  candidates: readonly Handoff[],
  log: { info(m: string): void; warn(m: string): void },
): void {
  const due = candidates.filter((h) => snapshot.find(h.uid!) === h);
  if (due.length === 0) return;
  let report: AppendReport;
  try {
    ensureSafeDirectory(layout.committedRoot, layout.archiveDir);
    report = appendToArchive(layout, due);
  } catch (e) {
    log.warn(`could not archive old handoffs now (${(e as Error).message}); they stay in handoffs.json until the next write`);
    return;
  }
  snapshot.removeArchived(new Set(due.map((h) => h.uid!)));
  const repaired = report.repairedFiles.length ? `; cut a line a crash left unfinished in ${report.repairedFiles.join(', ')}` : '';
  const again = report.alreadyArchived ? ` (${report.alreadyArchived} already there from an interrupted pass)` : '';
  log.info(`archived ${report.appended + report.alreadyArchived} handoff(s)${again}${repaired}`);
}
