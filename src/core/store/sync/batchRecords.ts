// What one sync batch knows of this clone's own records (docs/contract.md §13): its store, read once per batch and
// only read, and its archive; which of them join the shared state (by uid, never twice); which records the shared
// state archived that this clone held open or that were archived since its last contact (read by uid, so its archive
// follows); and the work contexts of passes it meets for the first time (docs/contract.md §6).
import { isTerminal, type Handoff } from '../../domain/handoffSchema';
import { inSchemaOrder } from '../../domain/schemaOrder';
import type { LocalAuthority } from '../local/localAuthority';
import type { StoreSnapshot } from '../storeSnapshot';
import type { StoreTransaction } from '../storeTransaction';
import type { SyncLocalState } from '../syncStateFile';
import type { SyncConfig } from '../../domain/configSchema';
import { adoptedRecords } from './rewoundCheck';
import type { SharedStateRef } from './sharedStateRef';
import { parseArchivedRecord } from './sharedWrite';
import { carriesContexts, type TreeFormat } from './sharedTreeLayout';
import { CONTEXT_FILE_MAX, hasContextFile, parseContext, writeContextFile } from '../workContextFile';

export class BatchRecords {
  private mine: StoreSnapshot | null | undefined = undefined;

  constructor(
    private readonly local: LocalAuthority,
    private readonly ref: SharedStateRef,
    private readonly config: SyncConfig,
  ) {}

  /** A new batch: its records are read again (once). */
  reset(): void {
    this.mine = undefined;
  }

  /**
   * This clone's records that a shared record of the same bytes may stand for unchecked (StoreSnapshot.parse's
   * `previous`): those in the schema's order, as a parse leaves them, so a clone writes the same bytes whether it parsed
   * the record or took its own (a record changed by appending fields is parsed, and so ordered, again).
   */
  async reusable(fallback: StoreSnapshot | undefined): Promise<{ handoffs: Handoff[] } | undefined> {
    const own = (await this.localRecords()) ?? fallback;
    return own && { handoffs: own.handoffs.filter(inSchemaOrder) };
  }

  /** This clone's records, read once per batch and only read (joinLocalRecords.ts); null when its store cannot be read. */
  async localRecords(): Promise<StoreSnapshot | null> {
    if (this.mine === undefined)
      this.mine = await this.local.base().then(
        (b) => b.snapshot,
        () => null,
      );
    return this.mine;
  }

  /**
   * Of the uids only this clone holds, those that must not join: records the last adopted state held (the remote
   * removed them since), and records the shared state at `head` archived (a tree `format`; a record joins once).
   */
  async notToJoin(uids: readonly string[], last: SyncLocalState, head: string, format: TreeFormat | null): Promise<Set<string>> {
    const out = await adoptedRecords(this.ref, this.config, last, uids);
    if (format) for (const uid of (await this.ref.recordsByUid(head, 'archive', uids, format)).keys()) out.add(uid);
    return out;
  }

  /** The records of this clone's archive the shared archive at `head` lacks (none open in the shared state: that one stands). */
  async archiveJoins(shared: StoreSnapshot, head: string, format: TreeFormat): Promise<Handoff[]> {
    const mine = this.local.archive.records((h) => Boolean(h.uid) && !shared.find(h.uid!));
    if (mine.length === 0) return [];
    const there = await this.ref.recordsByUid(head, 'archive', [...new Set(mine.map((h) => h.uid!))], format);
    const seen = new Set<string>();
    const joins = mine.filter((h) => !there.has(h.uid!) && !seen.has(h.uid!) && Boolean(seen.add(h.uid!)));
    if (joins.length) this.local.logger.info(`${joins.length} record(s) of this clone's archive join the shared archive`);
    return joins;
  }

  /**
   * Records the shared state at `commit` (tree `format`) archived in other clones' writes, for this clone's archive to
   * follow: those this clone held open, and those archived since `since` (the commit this clone last adopted, when
   * another clone wrote since), so `show` and `list --archived` find a record this clone never saw open. Read by uid.
   */
  async archivedElsewhere(
    tx: StoreTransaction,
    commit: string,
    archivedNow: readonly Handoff[],
    format: TreeFormat,
    since: string | null,
  ): Promise<Handoff[]> {
    const mine = await this.localRecords();
    const now = new Set(archivedNow.map((h) => h.uid));
    const gone = (mine?.handoffs ?? []).flatMap((h) => (h.uid && !tx.snapshot.find(h.uid) && !now.has(h.uid) ? [h.uid] : []));
    const later = since ? (await this.ref.archivedSince(since, commit, format)).filter((u) => !now.has(u)) : [];
    const found = await this.ref.recordsByUid(commit, 'archive', [...new Set([...gone, ...later])], format);
    return [...found.values()].flatMap((b) => {
      const h = parseArchivedRecord(b);
      return h && !this.local.archive.find(h.uid!) ? [h] : [];
    });
  }

  /**
   * The work contexts of open passes this clone sees for the first time (not among its records before this batch, not
   * passed in it), from the shared state at `commit` (format 3 carries them), written to this clone's home: one more
   * request in the batch's cat-file conversation. Best effort: a context not found or not valid is not written.
   */
  async followContexts(tx: StoreTransaction, commit: string, format: TreeFormat): Promise<void> {
    if (!carriesContexts(format)) return;
    const mine = await this.localRecords();
    const own = new Set(tx.contexts.map((c) => c.uid));
    const layout = this.local.layout;
    const uids = tx.snapshot.handoffs.flatMap((h) =>
      h.uid && h.return_to && !isTerminal(h.status) && !own.has(h.uid) && !mine?.find(h.uid) && !hasContextFile(layout, h.uid)
        ? [h.uid]
        : [],
    );
    try {
      for (const [uid, bytes] of await this.ref.recordsByUid(commit, 'context', uids, format)) {
        if (bytes.length <= CONTEXT_FILE_MAX && parseContext(bytes)) writeContextFile(layout, uid, bytes);
      }
    } catch (e) {
      this.local.logger.warn(`could not keep the work context of a pass here (${(e as Error).message}); show lacks it`);
    }
  }
}
