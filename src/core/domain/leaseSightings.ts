// When a clone may expire a lease in sync mode (docs/contract.md §4 "Leases across clones"): only once it has itself
// seen the record unchanged for the lease's whole duration on its own clock. The record's times were written by
// whichever clone took or renewed the lease, whose clock may be far off; they are shown, never trusted for expiry.
import type { Handoff } from './handoffSchema';

/** The first time (ms on this clone's clock) this clone saw a record in this exact version. */
export interface LeaseSighting {
  rev: number;
  updated_at: string;
  claimed_by: string | null;
  seen_at: number;
}

/** By uid: the in-progress records this clone has seen, each at the version it has seen longest. */
export type LeaseSightings = Record<string, LeaseSighting>;

function sameVersion(s: LeaseSighting, h: Handoff): boolean {
  return s.rev === (h.rev ?? 0) && s.updated_at === h.updated_at && s.claimed_by === (h.claimed_by ?? null);
}

/** Notes `h` as seen at `at`: a version seen before keeps its first sighting; a changed one starts again. True when it changed. */
export function sight(sightings: LeaseSightings, h: Handoff, at: number): boolean {
  if (!h.uid) return false;
  const known = sightings[h.uid];
  // A clock set back makes an earlier sighting look like the future: start again from now rather than wait for it.
  if (known && sameVersion(known, h) && known.seen_at <= at) return false;
  sightings[h.uid] = { rev: h.rev ?? 0, updated_at: h.updated_at, claimed_by: h.claimed_by ?? null, seen_at: at };
  return true;
}

/** True when this clone has seen `h`, unchanged, for at least `durationMs` up to `at`. */
export function seenUnchangedFor(sightings: Readonly<LeaseSightings>, h: Handoff, at: number, durationMs: number): boolean {
  const known = h.uid ? sightings[h.uid] : undefined;
  return !!known && sameVersion(known, h) && at - known.seen_at >= durationMs;
}

/** Parses a stored sightings file's content, keeping only well-formed entries (anything else is seen afresh). */
export function parseSightings(raw: unknown): LeaseSightings {
  const out: LeaseSightings = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [uid, v] of Object.entries(raw as Record<string, unknown>)) {
    const s = v as Partial<LeaseSighting> | null;
    if (!s || typeof s !== 'object') continue;
    if (typeof s.rev !== 'number' || typeof s.updated_at !== 'string' || typeof s.seen_at !== 'number' || !Number.isFinite(s.seen_at))
      continue;
    if (s.claimed_by !== null && typeof s.claimed_by !== 'string') continue;
    out[uid] = { rev: s.rev, updated_at: s.updated_at, claimed_by: s.claimed_by, seen_at: s.seen_at };
  }
  return out;
}
