// Human ids HO-YYYYMMDD-NNN (unique within the store and its archive, allocated under the store lock) and ULID uids.
import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { ActionError } from './errors';
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

/** The schema's digits (`HO-YYYYMMDD-NNN` to `-NNNNNN`): no id is allocated past them. */
export const MAX_ID_NUMBER = 999_999;
const DAY_MS = 86_400_000;

function dayTime(day: string): number {
  return Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}T00:00:00.000Z`);
}

/**
 * Why an id cannot number anything after it, or null: it is dated more than a day after `now` (a forged or broken
 * record from a merge or a shared state). Counted, it would date every later id after it, or run them past the digits.
 */
export function futureIdReason(id: string, now: Date): string | null {
  const p = parseHandoffId(id);
  if (!p) return null;
  const day = dayTime(p.day);
  if (Number.isNaN(day)) return `${id} is not dated by a real day`;
  return day > dayTime(dayStamp(now)) + DAY_MS ? `${id} is dated more than a day after today` : null;
}

/**
 * Why a merged record's id needs a human's look, or null: futureIdReason, or its day is more than a day away from the
 * record's own `created_at`. Such a record is kept (a merge never drops one) and marked in its `conflicts`.
 */
export function untrustedIdReason(h: { handoff_id: string; created_at?: string }, now: Date): string | null {
  const future = futureIdReason(h.handoff_id, now);
  if (future) return future;
  const p = parseHandoffId(h.handoff_id);
  const created = h.created_at ? Date.parse(h.created_at) : NaN;
  if (p && !Number.isNaN(created) && Math.abs(dayTime(p.day) - dayTime(dayStamp(new Date(created)))) > DAY_MS)
    return `${h.handoff_id} is dated more than a day away from its created_at ${h.created_at}`;
  return null;
}

/**
 * Tracks the highest sequence number used per day so allocation is O(1) after one scan. `highWater` is the highest
 * id that left the store for the archive (docs/agentsync-documentation.md, "The archive"): every id allocated is
 * above it, so an archived id is never handed out again, even for a day whose records are all archived.
 * An id is never allocated on a day after `now`'s, nor past the schema's digits (the day's lowest free number above the
 * mark then); an id or mark dated in the future (futureIdReason) does not raise the count, but is never handed out again.
 */
export class HandoffIdAllocator {
  private readonly maxByDay = new Map<string, number>();
  private readonly used = new Set<string>();
  private mark: { day: string; n: number } | null = null;
  private today = '';
  private pending: readonly Handoff[] | null;
  private readonly fixed: boolean;

  /** `now`: today for the whole allocator (a merge's clock); without it, the first `next` call's date is today. */
  constructor(
    handoffs: readonly Handoff[],
    private readonly highWater?: string,
    now?: Date,
    /**
     * The highest number of a day the archive holds. The mark comes from a committed file: when it alone uses up a
     * day's ids, the archive is asked, and a mark no archived record backs falls to what does.
     */
    private archivedHighest?: (day: string) => number,
  ) {
    this.pending = handoffs;
    this.fixed = now !== undefined;
    if (now) this.start(now);
  }

  /** One scan, made once today is known: which ids count for the next number, and whether the mark does. */
  private start(now: Date): void {
    const handoffs = this.pending;
    if (!handoffs) return;
    this.pending = null;
    this.today = dayStamp(now);
    for (const h of handoffs) {
      this.used.add(h.handoff_id);
      if (!futureIdReason(h.handoff_id, now)) this.note(h.handoff_id);
    }
    const mark = this.highWater ? parseHandoffId(this.highWater) : null;
    this.mark = mark && mark.day <= this.today && mark.n <= MAX_ID_NUMBER ? mark : null;
  }

  note(id: string): void {
    this.used.add(id);
    const p = parseHandoffId(id);
    if (p && p.n <= MAX_ID_NUMBER && p.n > (this.maxByDay.get(p.day) ?? 0)) this.maxByDay.set(p.day, p.n);
  }

  next(date: Date): string {
    const valid = !Number.isNaN(date.getTime());
    this.start(valid ? date : new Date());
    let day = valid ? dayStamp(date) : this.today;
    if (!this.fixed && day > this.today) this.today = day; // a store kept open past midnight
    if (day > this.today) day = this.today;
    // A clock behind the archive's newest id (or a merge renumbering an old record): earlier days may hold archived
    // numbers this store no longer sees, so the id goes on the mark's day, after it.
    if (this.mark && day < this.mark.day) day = this.mark.day;
    const floor = this.mark && day === this.mark.day ? this.mark.n : 0;
    const id = (n: number) => `HO-${day}-${String(n).padStart(3, '0')}`;
    let n = Math.max(this.maxByDay.get(day) ?? 0, floor) + 1;
    while (n <= MAX_ID_NUMBER && this.used.has(id(n))) n++;
    // The day's numbers ran out at the top (a record numbered near the last digit): the lowest free one above the mark.
    if (n > MAX_ID_NUMBER) for (n = floor + 1; n <= MAX_ID_NUMBER && this.used.has(id(n)); n++);
    if (n > MAX_ID_NUMBER && this.mark && day === this.mark.day && this.archivedHighest) {
      const proven = this.archivedHighest(day);
      this.archivedHighest = undefined; // asked once
      if (proven < this.mark.n) {
        this.mark = { day, n: proven };
        return this.next(date);
      }
    }
    if (n > MAX_ID_NUMBER)
      throw new ActionError(
        'ids_exhausted',
        `every handoff id of ${day} is taken (ids end at -${MAX_ID_NUMBER}); create it tomorrow, or remove the records ` +
          `holding that day's ids from handoffs.json.`,
      );
    this.note(id(n));
    return id(n);
  }
}
