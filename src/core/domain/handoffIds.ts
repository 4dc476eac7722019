// Human ids HO-YYYYMMDD-NNN (unique within the store; allocated under the store lock) and ULID uids.
import { monotonicFactory } from 'ulid';
import type { Handoff } from './handoffSchema';

const nextUlid = monotonicFactory();

export function newUid(now: number = Date.now()): string {
  return nextUlid(now);
}

export function dayStamp(date: Date): string {
  return date.toISOString().slice(0, 10).replace(/-/g, '');
}

/** Tracks the highest sequence number used per day so allocation is O(1) after one scan. */
export class HandoffIdAllocator {
  private readonly maxByDay = new Map<string, number>();

  constructor(handoffs: readonly Handoff[]) {
    for (const h of handoffs) this.note(h.handoff_id);
  }

  note(id: string): void {
    const m = /^HO-(\d{8})-(\d+)$/.exec(id);
    if (!m) return;
    const n = Number(m[2]);
    if (n > (this.maxByDay.get(m[1]) ?? 0)) this.maxByDay.set(m[1], n);
  }

  next(date: Date): string {
    const day = dayStamp(date);
    const n = (this.maxByDay.get(day) ?? 0) + 1;
    this.maxByDay.set(day, n);
    return `HO-${day}-${String(n).padStart(3, '0')}`;
  }
}
