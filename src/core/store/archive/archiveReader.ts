// Reads the archive (docs/agentsync-documentation.md, "The archive"). The files are committed, so they are read as
// untrusted: a line that is not JSON is skipped and counted, and every record handed out is checked against the
// store's schema first. A record can have several lines (re-archived after a merge brought it back, or both sides
// of a union merge archived it): the copy with the highest rev counts, on a tie the later line.
import * as fs from 'node:fs';
import { describeIssues, handoffSchema, type Handoff } from '../../domain/handoffSchema';
import { assertSafeDirectory } from '../../disk/safeDirectory';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { parseArchiveLine } from './archiveLine';
import { ARCHIVE_FILE_PATTERN, archiveFileOf, monthOfId, monthOfUid } from './archiveMonth';

/** One archive file may hold a year of a busy team's handoffs, not more: a bigger one is refused, not read. */
export const MAX_ARCHIVE_FILE_BYTES = 512 * 1024 * 1024;

type Raw = Record<string, unknown> & { uid?: unknown; handoff_id?: unknown; rev?: unknown };

export class ArchiveReader {
  /** Lines skipped (not a JSON object, or refused by the schema) by the current call, per file or record. */
  private readonly skipped = new Map<string, number>();

  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** The months that have a file, oldest first. */
  months(): string[] {
    assertSafeDirectory(this.layout.committedRoot, this.layout.archiveDir);
    let names: string[];
    try {
      names = fs.readdirSync(this.layout.archiveDir);
    } catch {
      return [];
    }
    return names
      .map((n) => ARCHIVE_FILE_PATTERN.exec(n)?.[1])
      .filter((m): m is string => m !== undefined)
      .sort();
  }

  /**
   * The archived copy of a handoff, by handoff_id or uid, or undefined. By id only its month's file is read (the
   * writer files it there); by uid the month of its ULID first, then every other month.
   */
  find(ref: string, skip: (uid: unknown) => boolean = () => false): Handoff | undefined {
    try {
      const idMonth = monthOfId(ref);
      if (idMonth)
        return this.validBest(
          this.withoutMovedAway(
            ref,
            this.readMonth(idMonth).filter((r) => r.handoff_id === ref && !skip(r.uid)),
          ),
        );
      const uidMonth = monthOfUid(ref);
      if (!uidMonth) return undefined;
      for (const month of [
        uidMonth,
        ...this.months()
          .reverse()
          .filter((m) => m !== uidMonth),
      ]) {
        const found = this.validBest(this.readMonth(month).filter((r) => r.uid === ref));
        if (found) return found;
      }
      return undefined;
    } finally {
      this.reportSkipped();
    }
  }

  /**
   * Every archived handoff that `keep` accepts (one copy per record, oldest month first), schema-checked. `keep` sees
   * the raw record, so a filter runs before the (costlier) check, which only the records kept pay for.
   */
  records(keep: (h: Handoff) => boolean = () => true): Handoff[] {
    const best = new Map<string, Raw>();
    for (const month of this.months()) {
      for (const r of this.readMonth(month)) {
        const key = typeof r.uid === 'string' ? r.uid : `id:${String(r.handoff_id)}`;
        const seen = best.get(key);
        if (!seen || revOf(r) >= revOf(seen)) {
          best.delete(key); // re-inserted: a newer copy takes the place of the older in the order
          best.set(key, r);
        }
      }
    }
    const out: Handoff[] = [];
    for (const r of best.values()) {
      if (!keep(r as unknown as Handoff)) continue;
      const valid = this.validate(r);
      if (valid) out.push(valid);
    }
    this.reportSkipped();
    return out;
  }

  /**
   * The highest number the archive holds among the ids of `day` (YYYYMMDD), 0 for none: what a high-water mark of that
   * day can be proven by (handoffs.json is committed, so its mark may be forged; docs/contract.md §9a).
   */
  highestOfDay(day: string): number {
    let best = 0;
    try {
      for (const r of this.readMonth(`${day.slice(0, 4)}-${day.slice(4, 6)}`)) {
        const m = typeof r.handoff_id === 'string' ? /^HO-(\d{8})-(\d+)$/.exec(r.handoff_id) : null;
        if (m && m[1] === day) best = Math.max(best, Number(m[2]));
      }
    } finally {
      this.reportSkipped();
    }
    return best;
  }

  /** A month's records as parsed (not yet validated); a missing file holds none. */
  private readMonth(month: string): Raw[] {
    const file = archiveFileOf(this.layout, month);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(file);
    } catch {
      return [];
    }
    if (!st.isFile() || st.size > MAX_ARCHIVE_FILE_BYTES) {
      this.skip(`archive/${month}.jsonl (not a regular file, or over ${MAX_ARCHIVE_FILE_BYTES} bytes)`);
      return [];
    }
    const out: Raw[] = [];
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    // A last line without its newline that does not parse is being appended right now, or was cut by a kill (the next
    // write cuts it off; its handoff is still in handoffs.json): not a record yet, and not an error.
    const last = lines.pop()!;
    if (parseArchiveLine(last)) lines.push(last);
    for (const line of lines) {
      if (line.trim() === '') continue;
      const record = parseArchiveLine(line);
      if (record) out.push(record);
      else this.skip(`archive/${month}.jsonl`);
    }
    return out;
  }

  /**
   * Copies of one id from several handoffs: a git merge renumbered one of them (docs/contract.md §8) and its old line
   * stays in the append-only file. A handoff whose newest copy carries another id has moved away from this one.
   */
  private withoutMovedAway(id: string, copies: Raw[]): Raw[] {
    const uids = new Set(copies.map((r) => r.uid));
    if (uids.size < 2) return copies;
    const moved = new Set([...uids].filter((uid) => typeof uid === 'string' && this.find(uid)?.handoff_id !== id));
    const kept = copies.filter((r) => !moved.has(r.uid));
    return kept.length ? kept : copies;
  }

  private validBest(copies: Raw[]): Handoff | undefined {
    let best: Raw | undefined;
    for (const r of copies) if (!best || revOf(r) >= revOf(best)) best = r;
    return best ? this.validate(best) : undefined;
  }

  private validate(r: Raw): Handoff | undefined {
    const checked = handoffSchema.safeParse(r);
    if (checked.success) return checked.data;
    const id = typeof r.handoff_id === 'string' ? r.handoff_id.slice(0, 40) : '(no handoff_id)';
    this.skip(`the archived record ${id} (${describeIssues(checked.error)})`);
    return undefined;
  }

  private skip(where: string): void {
    this.skipped.set(where, (this.skipped.get(where) ?? 0) + 1);
  }

  /** One warning per call, naming what was skipped: a broken line is reported, never fatal to a lookup. */
  private reportSkipped(): void {
    if (this.skipped.size === 0) return;
    const what = [...this.skipped].slice(0, 5).map(([where, n]) => (n > 1 ? `${where}: ${n} lines` : where));
    this.skipped.clear();
    this.warn(
      `the archive has lines that are not valid handoff records, skipped: ${what.join('; ')}. Fix or remove them (git log shows who wrote them).`,
    );
  }
}

function revOf(r: Raw): number {
  return typeof r.rev === 'number' ? r.rev : 0;
}
