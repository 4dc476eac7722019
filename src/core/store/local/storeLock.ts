// This clone's cross-process lock on its store (docs/contract.md §12), with the wait of the authority the batch uses:
// in sync mode each holder talks to the remote (two round trips, more when the ref moved), so several agents of one
// clone writing at once wait longer than on the local disk alone.
import { FileLock } from '../../disk/fileLock';

/** How long a write waits for this clone's lock in sync mode. */
const SYNC_LOCK_WAIT_MS = 120_000;
const LOCAL_LOCK_WAIT_MS = 10_000;

export class StoreLock {
  private readonly waits: { local: FileLock; sync: FileLock };
  /** The lock of the batch under way (fencing checks it before every write). */
  current: FileLock;

  constructor(file: string, timeoutMs?: number) {
    this.waits = {
      local: new FileLock(file, timeoutMs ?? LOCAL_LOCK_WAIT_MS),
      sync: new FileLock(file, timeoutMs ?? SYNC_LOCK_WAIT_MS),
    };
    this.current = this.waits.local;
  }

  /** Takes the lock, waiting as long as a batch decided by the remote (`remote`) or by this clone may. */
  async acquire(remote: boolean): Promise<void> {
    this.current = remote ? this.waits.sync : this.waits.local;
    await this.current.acquire();
  }

  release(): void {
    this.current.release();
  }

  /** Fencing: a process whose lock was taken over (its lease expired while it was frozen) writes nothing. */
  assertHeld(): void {
    this.current.assertHeld();
  }
}
