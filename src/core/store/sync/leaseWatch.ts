// leaseWatch.json in the clone's home (runtime, never shared or committed): when this clone first saw each
// in-progress record in its current version, on its own clock, so that in sync mode a lease is expired only after
// this clone watched it unchanged for the lease's duration (domain/leaseSightings.ts, docs/contract.md §4).
import * as fs from 'node:fs';
import { writeFileAtomic } from '../../disk/atomicFile';
import { parseSightings, seenUnchangedFor, sight, type LeaseSightings } from '../../domain/leaseSightings';
import type { Handoff } from '../../domain/handoffSchema';

export class LeaseWatch {
  private sightings: LeaseSightings | null = null;
  private dirty = false;

  constructor(private readonly file: string) {}

  private load(): LeaseSightings {
    if (this.sightings) return this.sightings;
    try {
      // A missing, unreadable or broken file means nothing was seen yet: expiry waits longer, never less.
      this.sightings = fs.lstatSync(this.file).isFile() ? parseSightings(JSON.parse(fs.readFileSync(this.file, 'utf8'))) : {};
    } catch {
      this.sightings = {};
    }
    return this.sightings;
  }

  /** Notes the in-progress records among `records` as seen at `at`; with `onlyThese`, forgets every other record. */
  sight(records: readonly Handoff[], at: Date, onlyThese = false): void {
    const s = this.load();
    const live = records.filter((h) => h.status === 'in_progress' && h.uid);
    for (const h of live) if (sight(s, h, at.getTime())) this.dirty = true;
    if (!onlyThese) return;
    const keep = new Set(live.map((h) => h.uid));
    for (const uid of Object.keys(s)) {
      if (keep.has(uid)) continue;
      delete s[uid];
      this.dirty = true;
    }
  }

  seenUnchangedFor(h: Handoff, at: Date, durationMs: number): boolean {
    return seenUnchangedFor(this.load(), h, at.getTime(), durationMs);
  }

  /** Writes what changed. Sightings are true whatever became of the batch, so they are kept even when it failed. */
  save(): void {
    if (!this.dirty || !this.sightings) return;
    writeFileAtomic(this.file, JSON.stringify(this.sightings) + '\n', { durable: false });
    this.dirty = false;
  }
}
