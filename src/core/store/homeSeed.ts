// First use of a clone's home (docs/contract.md §14 item 2): its live record is seeded from the main worktree's
// committed store (a bare clone: the store of its HEAD commit, which the caller reads from git). Node built-ins only:
// the tool hooks' bundle reads the record through storeReader.ts, which seeds here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { fileStatKeyOf } from '../disk/fileStatKey';
import { ensureSafeDirectory } from '../disk/safeDirectory';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import { MAX_STORE_BYTES, storeFileRefusal } from './storeLimits';

/** The notice a seeding leaves for the first store of a surface to say once (homeRecord.ts, takeSeedNotice). */
export const SEED_NOTICE = 'seeded.notice';
/** The stat of the committed store the home last joined, seeded from or wrote, so an unchanged one is not read again. */
export const SEEN_COMMITTED = 'committed.seen';

/** The bytes of a regular store file within the limit, or null. */
export function regularStoreBytes(file: string): Buffer | null {
  try {
    const st = fs.lstatSync(file);
    if (storeFileRefusal(st)) return null;
    return st.size > MAX_STORE_BYTES ? null : fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** Notes the committed store's stat as seen (joined, seeded from or written). */
export function rememberCommitted(layout: WorkspaceLayout): void {
  if (!layout.followStoreFile) return;
  const key = fileStatKeyOf(layout.followStoreFile) ?? 'missing';
  try {
    fs.writeFileSync(path.join(layout.recordDir, SEEN_COMMITTED), key);
  } catch {
    // the next join reads the committed store again: slower, never wrong
  }
}

/**
 * Creates the home's record where it has none, from the main worktree's committed store, or from `headStore` (a
 * bare clone's HEAD, read by the caller). Safe without the lock: the seed is linked into place only where no record
 * is, so a racing seeder or writer wins and this one leaves it. The store's own load checks what was seeded. Returns
 * true when it seeded.
 */
export function seedHome(layout: WorkspaceLayout, headStore?: () => Buffer | null): boolean {
  if (!layout.placement || layout.worktreeProblem || fs.existsSync(layout.handoffsFile)) return false;
  const source = layout.followStoreFile ?? `${layout.placement.location.commonDir} (HEAD)`;
  const bytes = layout.followStoreFile ? regularStoreBytes(layout.followStoreFile) : (headStore?.() ?? null);
  if (!bytes) return false;
  ensureSafeDirectory(layout.recordBase, layout.recordDir);
  const temp = `${layout.handoffsFile}.${process.pid}.seed.tmp`;
  fs.writeFileSync(temp, bytes);
  try {
    fs.linkSync(temp, layout.handoffsFile);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  rememberCommitted(layout);
  carryRuntimeState(layout);
  writeFileAtomic(
    path.join(layout.recordDir, SEED_NOTICE),
    `this clone now keeps its one live record in ${layout.recordDir}, seeded from ${source}; every worktree of the clone reads ` +
      "and writes it there, and the main worktree's committed copy follows it after each write (docs/contract.md §14)\n",
    { durable: false },
  );
  return true;
}

/**
 * An upgraded clone's open sessions: before the home, state.json lived beside the main worktree's store. It is carried
 * into the home once, at the seeding, so a session left open across the upgrade is still reminded and ended. Only a
 * regular file within the store's size limit; the home's own, if any, is never overwritten.
 */
function carryRuntimeState(layout: WorkspaceLayout): void {
  if (!layout.followStoreFile || fs.existsSync(layout.stateFile)) return;
  const bytes = regularStoreBytes(path.join(path.dirname(layout.followStoreFile), 'state.json'));
  if (!bytes) return;
  try {
    writeFileAtomic(layout.stateFile, bytes, { durable: false });
  } catch {
    // sessions are reminders: without them the next session start writes a fresh state.json
  }
}
