// What one batch of requests sees inside the lock: the snapshot, plus the side effects to write once at the end.
import type { AuditEntry } from './auditLog';
import { ActionError } from '../domain/errors';
import { describeIssues, handoffSchema, type Handoff } from '../domain/handoffSchema';
import { PARSE_ONCE } from '../domain/parseOnce';
import type { StoreSnapshot } from './storeSnapshot';
import type { AgentSyncConfig } from '../domain/configSchema';
import { refuseMovedId, type MovedId } from './movedIds';

/** Where handoffs moved out of the store are found (archive/archiveReader.ts). */
export interface ArchiveLookup {
  /** `skip`: handoffs (by uid) whose copies are passed over. */
  find(ref: string, skip?: (uid: unknown) => boolean): Handoff | undefined;
  records(keep?: (h: Handoff) => boolean): Handoff[];
}

export interface LedgerEntry {
  request_id: string;
  hash: string;
  /** Omitted for read-only actions: those are answered again rather than stored. */
  response?: unknown;
}

/** Sync mode's record of what this clone has itself seen, and when (sync/leaseWatch.ts). */
export interface LeaseWatcher {
  sight(records: readonly Handoff[], at: Date, onlyThese?: boolean): void;
  seenUnchangedFor(h: Handoff, at: Date, durationMs: number): boolean;
}

export class StoreTransaction {
  readonly audit: AuditEntry[] = [];
  readonly decisions: { handoff: Handoff; agent: string; timestamp: string }[] = [];
  readonly ledger: LedgerEntry[] = [];
  /** Writes of files outside the store (the session sections), run only once the store is written. */
  readonly afterCommit: { what: string; run: () => void }[] = [];
  /** The work contexts of this batch's passes (store/workContextFile.ts): a shared write carries them too. */
  readonly contexts: { uid: string; bytes: string }[] = [];
  private undo: (() => void)[] = [];

  constructor(
    readonly snapshot: StoreSnapshot,
    readonly config: AgentSyncConfig,
    private readonly readLedger: () => ReadonlyMap<string, LedgerEntry>,
    readonly now: () => Date,
    /** Absent in tests that build a transaction by hand: then nothing is archived. */
    readonly archive: ArchiveLookup | null = null,
    /** The ids a git merge moved in this clone (movedIds.ts), read only when a request names one. */
    private readonly movedIds: () => readonly MovedId[] = () => [],
  ) {}

  /** The agent of the request being applied (the dispatcher sets it): an id that moved is refused per agent (movedIds.ts). */
  actor: string | null = null;
  /**
   * Set in sync mode only: leases there expire on what this clone saw, not on the record's times (docs/contract.md §4).
   * Null with one clone, where the one clock that wrote the lease also expires it.
   */
  leaseWatch: LeaseWatcher | null = null;
  private ledgerCache: ReadonlyMap<string, LedgerEntry> | null = null;
  private readonly done = new Set<string>();

  /** True the first time `key` is asked in this batch: for work done once per batch, before its first request. */
  firstTime(key: string): boolean {
    if (this.done.has(key)) return false;
    this.done.add(key);
    return true;
  }

  /** The stored answer for a request_id, read from the ledger only when a request carries an id. */
  ledgerEntry(requestId: string): LedgerEntry | undefined {
    // An earlier request of this same batch is not in the ledger file yet: look at what this batch recorded first.
    for (let i = this.ledger.length - 1; i >= 0; i--) if (this.ledger[i].request_id === requestId) return this.ledger[i];
    this.ledgerCache ??= this.readLedger();
    return this.ledgerCache.get(requestId);
  }

  /** How many changes the batch holds so far: a request changed the store when this grew during it. */
  changes(): number {
    return this.undo.length;
  }

  /** True once any request in the batch changed a record (undone changes do not count). */
  get changed(): boolean {
    return this.undo.length > 0;
  }

  get handoffs(): readonly Handoff[] {
    return this.snapshot.handoffs;
  }

  /** A handoff in the store (open or recently finished): what every change works on. */
  find(idOrUid: string): Handoff | undefined {
    return this.snapshot.find(idOrUid);
  }

  /** A handoff in the store or, failing that, in the archive (read-only there: see replace). */
  findAnywhere(idOrUid: string): Handoff | undefined {
    const live = this.snapshot.find(idOrUid);
    if (live || !this.archive) return live;
    const archived = this.archive.find(idOrUid);
    // An archived line under an id its handoff no longer has (a merge renumbered it back in handoffs.json) is not it.
    const moved = archived?.uid && archived.handoff_id === idOrUid ? this.snapshot.find(archived.uid) : undefined;
    if (!moved || moved.handoff_id === idOrUid) return archived;
    return this.archive.find(idOrUid, (uid) => uid === moved.uid);
  }

  /**
   * The handoff a request names by id or uid, from the store or the archive; an id a git merge moved in this clone,
   * not yet told to its agents, is refused `id_moved` (docs/contract.md §8) rather than answered about another record.
   */
  lookup(ref: string): Handoff | undefined {
    this.assertNotMoved(ref);
    return this.findAnywhere(ref);
  }

  /** Refuses `id_moved` for an id a git merge moved in this clone whose agents were not told yet (movedIds.ts). */
  assertNotMoved(ref: string): void {
    refuseMovedId(
      ref,
      this.snapshot.handoffs,
      (r) => this.snapshot.find(r),
      (r) => this.findAnywhere(r),
      this.movedIds,
      this.actor,
    );
  }

  insert(h: Handoff): void {
    assertRecordValid(h);
    this.snapshot.insert(h);
    this.leaseWatch?.sight([h], this.now());
    this.undo.push(() => this.snapshot.undoInsert(h));
  }

  replace(h: Handoff): void {
    if (!this.snapshot.find(h.uid!)) {
      throw new ActionError(
        'archived',
        `${h.handoff_id} is ${h.status} and archived (.agentsync/archive/); an archived handoff is read-only. ` +
          'Create a follow-up handoff instead; nothing was changed.',
        { handoff_id: h.handoff_id, status: h.status },
      );
    }
    assertRecordValid(h);
    const previous = this.snapshot.replace(h);
    this.undo.push(() => this.snapshot.replace(previous));
    // A lease this clone takes or renews is seen by it as it writes it.
    this.leaseWatch?.sight([h], this.now());
  }

  /** Marks the start of one request's work, so a failure undoes only that request. */
  begin(): { rollback(): void } {
    const mark = this.undo.length;
    const auditMark = this.audit.length;
    const decisionsMark = this.decisions.length;
    const afterMark = this.afterCommit.length;
    const ledgerMark = this.ledger.length;
    const contextsMark = this.contexts.length;
    return {
      rollback: () => {
        while (this.undo.length > mark) this.undo.pop()!();
        this.audit.length = auditMark;
        this.decisions.length = decisionsMark;
        this.afterCommit.length = afterMark;
        this.ledger.length = ledgerMark;
        this.contexts.length = contextsMark;
      },
    };
  }
}

/**
 * Every record is checked against the store's own schema before it joins the batch: a record the schema refuses
 * would make every later read of the file fail (store_invalid) on every clone, so the request is refused instead.
 */
export function assertRecordValid(h: Handoff): void {
  const checked = handoffSchema.safeParse(h, PARSE_ONCE);
  if (checked.success) return;
  const first = checked.error.issues[0];
  throw new ActionError(
    'record_invalid',
    `This change would write a record the store's schema refuses (${describeIssues(checked.error, h.handoff_id)}). ` +
      'Nothing was changed; shorten or correct the field named.',
    { field: first ? first.path.map(String).join('.') : undefined, handoff_id: h.handoff_id },
  );
}
