// The home's housekeeping (docs/contract.md §14 item 3), split out of the drop-zone processor so that a watcher that
// answers every worktree of a clone runs it once per home, not once per drop zone: expired leases back to the queue
// (§6 liveness), passed work whose timeout is up handed back, audit.retention_days applied at start and daily, and
// held work whose worktree was removed by other means named (worktree_gone), and the merged offer said (§14 item 5).
import { goneWorktrees, worktreeGoneText } from '../git/worktreeGone';
import { mergedOffers } from '../git/mergedOffer';
import { originatorOf } from '../domain/lifecycle';
import type { RequestDispatcher } from '../requests/requestDispatcher';
import type { DropZoneLogger } from './claimAnswerer';

const DAY_MS = 86_400_000;

export class Housekeeping {
  private sweepTimer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private sweeping = false;
  /** worktree_gone and merged offers already said by this watcher, so each is said once (it stays shown in show, list and the briefing). */
  private readonly goneSaid = new Set<string>();

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
    this.noticeGoneWorktrees();
  }

  /**
   * Held handoffs whose worktree is gone, and bound work whose branch reached the default branch (the merged offer):
   * said once each; the record is left as it is (its holder or originator decides).
   */
  noticeGoneWorktrees(): void {
    const placement = this.dispatcher.store.layout.placement;
    if (!placement) return;
    try {
      const handoffs = this.dispatcher.store.read().handoffs;
      const gone = goneWorktrees(placement.location, handoffs);
      for (const h of handoffs) {
        if (!gone.has(h.handoff_id) || this.goneSaid.has(`${h.uid}:${h.worktree?.name}`)) continue;
        this.goneSaid.add(`${h.uid}:${h.worktree?.name}`);
        this.logger.warn(worktreeGoneText(h));
      }
      for (const offer of mergedOffers(placement.location, handoffs, originatorOf)) {
        if (this.goneSaid.has(`merged:${offer.handoff_id}`)) continue;
        this.goneSaid.add(`merged:${offer.handoff_id}`);
        this.logger.info(offer.message);
      }
    } catch (e) {
      this.logger.warn(`worktree check: ${(e as Error).message}`);
    }
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
