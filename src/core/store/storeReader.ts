// Where the state is read from, for every reader outside the commit pipeline (docs/contract.md §12 and §13): this
// clone's .agentsync/handoffs.json, which in sync mode is the shared state as this clone last adopted it (syncedAt
// says when). The file rules are HandoffStore's own (storeFileRefusal): a symlink or special file is not followed, a
// file over MAX_STORE_BYTES is not read; the file is only ever replaced whole, so a read is never torn, and a
// crashed writer's temp file is never read. Readers that need the records checked use HandoffStore.read(); the tool
// hooks scan the bytes (src/core/hooks/storeScan.ts). Node built-ins only: dist/hook.js reads through this.
import * as fs from 'node:fs';
import { ActionError } from '../domain/errors';
import { WorkspaceLayout } from '../workspace/workspaceLayout';
import { readSyncState } from './syncStateFile';
import { emptyStoreBytes } from './storeFormat';
import type { StoreSeed } from '../workspace/workspaceInit';

export const MAX_STORE_BYTES = 200 * 1024 * 1024;

/** Why a store file with these stats is not read as the store (a symlink or special file, over the limit), or null. */
export function storeFileRefusal(st: Pick<fs.Stats | fs.BigIntStats, 'isFile' | 'size'>): ActionError | null {
  if (!st.isFile()) {
    return new ActionError(
      'store_unsafe',
      '.agentsync/handoffs.json is a symlink or special file; AgentSync will not follow it. Replace it with a regular file.',
    );
  }
  if (Number(st.size) > MAX_STORE_BYTES) {
    return new ActionError(
      'too_large',
      `.agentsync/handoffs.json is ${st.size} bytes, over the ${MAX_STORE_BYTES}-byte limit; archive old handoffs and retry.`,
    );
  }
  return null;
}

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

  /** True when the workspace has a store file (readable or not). */
  exists(): boolean {
    return fs.existsSync(this.layout.handoffsFile);
  }

  /** The store's bytes, or null when there is none, or it cannot be read as the store (storeFileRefusal, I/O). */
  bytes(): Buffer | null {
    try {
      if (storeFileRefusal(fs.lstatSync(this.layout.handoffsFile))) return null;
      return fs.readFileSync(this.layout.handoffsFile);
    } catch {
      return null;
    }
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
    return readSyncState(this.layout.syncStateFile).fetched_at;
  }
}

/** The store's bytes read at most once, however many steps ask (a tool hook's radar and lease check share a read). */
export function readOnce(reader: StoreReader): () => Buffer | null {
  let read: { bytes: Buffer | null } | null = null;
  return () => (read ??= { bytes: reader.bytes() }).bytes;
}

/** What `init` creates for the store where there is none (workspaceInit.ts): this workspace's store file, empty. */
export function storeSeed(root: string): StoreSeed {
  return { file: new StoreReader(root).file, empty: emptyStoreBytes(undefined) };
}
