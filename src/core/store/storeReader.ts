// Where the state is read from, for every reader outside the commit pipeline (docs/contract.md §12 and §13): this
// clone's live record (in git the clone's home, docs/contract.md §14, seeded here on first use; outside git
// .agentsync/handoffs.json), which in sync mode is the shared state as this clone last adopted it (syncedAt says
// when). The file rules are HandoffStore's own (storeFileRefusal): a symlink or special file is not followed, a file
// over MAX_STORE_BYTES is not read; the file is only ever replaced whole, so a read is never torn, and a crashed
// writer's temp file is never read. Readers that need the records checked use HandoffStore.read(); the tool hooks
// scan the bytes (src/core/hooks/storeScan.ts). Node built-ins only: dist/hook.js reads through this.
import * as fs from 'node:fs';
import { freshHookIndex } from './hookIndex';
import { seedHome } from './homeSeed';
import { storeFileRefusal } from './storeLimits';
import { WorkspaceLayout } from '../workspace/workspaceLayout';
import { readSyncFetchedAt } from './syncFetchedAt';
import { emptyStoreBytes } from './storeFormat';
import type { StoreSeed } from '../workspace/workspaceInit';

export { MAX_STORE_BYTES, storeFileRefusal } from './storeLimits';

/** The state of one workspace as this clone holds it, read without the lock. */
export class StoreReader {
  private readonly layout: WorkspaceLayout;

  constructor(root: string | WorkspaceLayout) {
    this.layout = typeof root === 'string' ? new WorkspaceLayout(root) : root;
  }

  /** The file the state is read from: what an editor opens to show a record. */
  get file(): string {
    return this.layout.handoffsFile;
  }

  /** Where the record's runtime files live (the clone's home, docs/contract.md §14) and the folder they are checked from. */
  get home(): { recordDir: string; recordBase: string } {
    return { recordDir: this.layout.recordDir, recordBase: this.layout.recordBase };
  }

  /** True when the workspace has a store file (readable or not); a clone's home is seeded on its first read. */
  exists(): boolean {
    return fs.existsSync(this.layout.handoffsFile) || this.seeded();
  }

  /** Seeds the clone's home from the main worktree's committed store where it has no record yet (homeRecord.ts). */
  private seeded(): boolean {
    try {
      return seedHome(this.layout);
    } catch {
      return false;
    }
  }

  /** The store's bytes, or null when there is none, or it cannot be read as the store (storeFileRefusal, I/O). */
  bytes(): Buffer | null {
    try {
      if (this.layout.worktreeProblem) return null;
      if (!fs.existsSync(this.layout.handoffsFile)) this.seeded();
      if (storeFileRefusal(fs.lstatSync(this.layout.handoffsFile))) return null;
      return fs.readFileSync(this.layout.handoffsFile);
    } catch {
      return null;
    }
  }

  /**
   * What the tool hooks scan (hooks/storeScan.ts): the hooks' index while it names the store as it is now
   * (hookIndex.ts), a few live claims instead of every record; else the store's bytes, as bytes().
   */
  hookBytes(): Buffer | null {
    if (this.layout.worktreeProblem) return null;
    return freshHookIndex(this.layout.hookIndexFile, this.layout.handoffsFile) ?? this.bytes();
  }

  /** The store's text, as bytes() (null: none, or not readable as the store). */
  text(): string | null {
    return this.bytes()?.toString('utf8') ?? null;
  }

  /**
   * When this clone last fetched or pushed the shared state (sync mode: the age of what bytes() returns), or null
   * when it never did (no sync, or not yet).
   */
  syncedAt(): string | null {
    return readSyncFetchedAt(this.layout.syncStateFile);
  }
}

/**
 * The store's bytes (or, `forHooks`, what the tool hooks scan: StoreReader.hookBytes) read at most once, however many
 * steps ask (a tool hook's radar and lease check share a read).
 */
export function readOnce(reader: StoreReader, forHooks = false): () => Buffer | null {
  let read: { bytes: Buffer | null } | null = null;
  return () => (read ??= { bytes: forHooks ? reader.hookBytes() : reader.bytes() }).bytes;
}

/** What `init` creates for the store where there is none (workspaceInit.ts): this workspace's store file, empty. */
export function storeSeed(root: string): StoreSeed {
  // This checkout's committed store: what the branch carries (the home is seeded from the main worktree's on first use).
  return { file: WorkspaceLayout.ofCheckout(root).checkoutStoreFile, empty: emptyStoreBytes(undefined) };
}
