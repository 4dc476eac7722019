// Human ids HO-YYYYMMDD-NNN (unique within the store and its archive, allocated under the store lock) and ULID uids.
import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { Handoff } from './handoffSchema';

/**
 * The ULIDs' randomness: secure random bytes drawn 4 KiB at a time, instead of one system call per character (16 a
 * ULID, and every request gets one). A byte over 256 maps evenly onto the 32 ULID characters.
 */
const pool = Buffer.alloc(4096);
let drawn = pool.length;
function pooledRandom(): number {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++] / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

export function newUid(now: number = Date.now()): string {
  return nextUlid(now);
}

export function dayStamp(date: Date): string {
  return date.toISOString().slice(0, 10).replace(/-/g, '');
}

/** The day and sequence number of an id, or null for a string that is not one. */
export function parseHandoffId(id: string): { day: string; n: number } | null {
  const m = /^HO-(\d{8})-(\d+)$/.exec(id);
  return m ? { day: m[1], n: Number(m[2]) } : null;
}

/** Orders ids by day, then by number (HO-20260101-010 after HO-20260101-009); non-ids sort first. */
export function compareHandoffIds(a: string, b: string): number {
  const x = parseHandoffId(a);
  const y = parseHandoffId(b);
  if (!x || !y) return (x ? 1 : 0) - (y ? 1 : 0);
  return x.day !== y.day ? (x.day < y.day ? -1 : 1) : x.n - y.n;
}

/** The later of two optional ids (the archive's high-water mark only ever rises). */
export function laterId(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return compareHandoffIds(a, b) >= 0 ? a : b;
}

/**
 * Tracks the highest sequence number used per day so allocation is O(1) after one scan. `highWater` is the highest
 * id that left the store for the archive (docs/agentsync-documentation.md, "The archive"): every id allocated is
 * above it, so an archived id is never handed out again, even for a day whose records are all archived.
 */
export class HandoffIdAllocator {
  private readonly maxByDay = new Map<string, number>();
  private readonly mark: { day: string; n: number } | null;

  constructor(handoffs: readonly Handoff[], highWater?: string) {
    for (const h of handoffs) this.note(h.handoff_id);
    this.mark = highWater ? parseHandoffId(highWater) : null;
  }

  note(id: string): void {
    const p = parseHandoffId(id);
    if (p && p.n > (this.maxByDay.get(p.day) ?? 0)) this.maxByDay.set(p.day, p.n);
  }

  next(date: Date): string {
    let day = dayStamp(date);
    // A clock behind the archive's newest id (or a merge renumbering an old record): earlier days may hold archived
    // numbers this store no longer sees, so the id goes on the mark's day, after it.
    if (this.mark && day < this.mark.day) day = this.mark.day;
    const floor = this.mark && day === this.mark.day ? this.mark.n : 0;
    const n = Math.max(this.maxByDay.get(day) ?? 0, floor) + 1;
    this.maxByDay.set(day, n);
    return `HO-${day}-${String(n).padStart(3, '0')}`;
  }
}
