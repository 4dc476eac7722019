// The home's housekeeping (docs/contract.md §14 item 3), split out of the drop-zone processor so that a watcher that
// answers every worktree of a clone runs it once per home, not once per drop zone: expired leases back to the queue
// (§6 liveness), passed work whose timeout is up handed back, and audit.retention_days applied at start and daily.
import type { RequestDispatcher } from '../requests/requestDispatcher';
import type { DropZoneLogger } from './claimAnswerer';

const DAY_MS = 86_400_000;

export class Housekeeping {
  private sweepTimer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private sweeping = false;

  constructor(
    private readonly dispatcher: RequestDispatcher,
    private readonly logger: DropZoneLogger,
    /** How often expired leases are returned to the queue (expireLeases; default 30000 ms, 0 = never). */
    private readonly leaseSweepMs = 30_000,
  ) {}

  start(): void {
    if (this.pruneTimer) return;
    if (this.leaseSweepMs > 0) this.sweepTimer = setInterval(() => void this.sweepLeases(), this.leaseSweepMs);
    this.pruneAudit();
    this.pruneTimer = setInterval(() => this.pruneAudit(), DAY_MS);
  }

  stop(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.sweepTimer = null;
    this.pruneTimer = null;
  }

  pruneAudit(): void {
    try {
      const removed = this.dispatcher.store.pruneAudit();
      if (removed.length) this.logger.info(`audit retention: removed ${removed.join(', ')}`);
    } catch (e) {
      this.logger.warn(`audit retention: ${(e as Error).message}`);
    }
  }

  private async sweepLeases(): Promise<void> {
    const r = await this.dispatcher.dispatch({ action: 'expireLeases' }, { surface: 'dropzone' });
    const released = r.data?.released ?? [];
    if (released.length) this.logger.info(`lease expired, back in the queue: ${released.map((h) => h.handoff_id).join(', ')}`);
    else if (!r.ok) this.logger.warn(`expireLeases: ${r.reason}: ${r.message}`);
  }

  /** Passed work whose timeout is up goes back to its origin within a rescan (E010 / E022; a look, then a write if due). */
  async sweepTimeouts(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    const swept = await this.dispatcher.sweepTimeouts('dropzone').finally(() => (this.sweeping = false));
    if (swept?.timed_out.length) {
      const pairs = swept.timed_out.map(
        (h, i) => `${h.handoff_id} → ${swept.returned[i]?.handoff_id ?? "its group's join, later"} for ${h.return_to}`,
      );
      this.logger.info(`timed out, handed back: ${pairs.join(', ')}`);
    }
  }
}
