// A pass's work context (docs/contract.md §6, "The work context"): stored beside the record and never in it
// (store/workContextFile.ts), written once the store is (tx.afterCommit), so a refused pass leaves none; in sync mode the
// same bytes travel with the pass's write (tx.contexts).
import { contextBytes, readContextFile, writeContextFile } from '../../store/workContextFile';
import type { WorkContext } from '../../domain/workContext';
import type { StoreTransaction } from '../../store/storeTransaction';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';

export function storeContext(tx: StoreTransaction, layout: WorkspaceLayout, uid: string, context: WorkContext): void {
  const bytes = contextBytes(context);
  tx.contexts.push({ uid, bytes });
  tx.afterCommit.push({ what: `context/${uid}.json`, run: () => writeContextFile(layout, uid, bytes) });
}

/** The context stored for a handoff, or null (none, unreadable, or not a context: it is another agent's data). */
export function readContext(layout: WorkspaceLayout, uid: string | undefined): WorkContext | null {
  return readContextFile(layout, uid);
}
