// Telling of each handoff once (newWorkNotices.ts, returnNotices.ts): what arrives while a window is open is announced
// once, and what was already there at the first look is in the tree, not in a notification.
import type { Handoff } from './handoffSchema';

/** Hands out each handoff that `announces` for `me` once; the first call only records what is already there. */
export class OnceNotices {
  private readonly seen = new Set<string>();
  private primed = false;

  /**
   * `announces`: whether a handoff seen for the first time is told to `me`. `tracks`: which handoffs count as seen at
   * all; one that does not yet is judged again at a later call (a handoff that becomes a return, say).
   */
  constructor(
    private readonly announces: (h: Handoff, me: string) => boolean,
    private readonly tracks: (h: Handoff) => boolean = () => true,
  ) {}

  take(handoffs: readonly Handoff[], me: string): Handoff[] {
    const fresh: Handoff[] = [];
    for (const h of handoffs) {
      if (!this.tracks(h)) continue;
      const key = h.uid ?? h.handoff_id;
      if (this.seen.has(key)) continue;
      this.seen.add(key); // whoever it is for: a later change of agentsync.agentId does not replay old ones
      if (this.primed && this.announces(h, me)) fresh.push(h);
    }
    this.primed = true;
    return fresh;
  }
}
