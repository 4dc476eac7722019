// Where a pass's work context lives (docs/contract.md §6, "The work context"): the home's `context/<uid>.json`, beside
// the record and never in it, written once the store is (tx.afterCommit), so a refused pass leaves none.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../disk/atomicFile';
import { ensureSafeDirectory } from '../../disk/safeDirectory';
import { workContextSchema, type WorkContext } from '../../domain/workContext';
import type { StoreTransaction } from '../../store/storeTransaction';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';

const UID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

function fileFor(layout: WorkspaceLayout, uid: string): string | null {
  return UID.test(uid) ? path.join(layout.contextDir, `${uid}.json`) : null;
}

export function storeContext(tx: StoreTransaction, layout: WorkspaceLayout, uid: string, context: WorkContext): void {
  const file = fileFor(layout, uid);
  if (!file) return;
  tx.afterCommit.push({
    what: `context/${uid}.json`,
    run: () => {
      ensureSafeDirectory(layout.recordBase, layout.contextDir);
      writeFileAtomic(file, JSON.stringify(context, null, 2) + '\n');
    },
  });
}

/** The context stored for a handoff, or null (none, unreadable, or not a context: it is another agent's data). */
export function readContext(layout: WorkspaceLayout, uid: string | undefined): WorkContext | null {
  const file = uid ? fileFor(layout, uid) : null;
  if (!file) return null;
  try {
    const st = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 4 * 1024 * 1024) return null;
    const parsed = workContextSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
