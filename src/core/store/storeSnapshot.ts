// An in-memory view of handoffs.json with the indexes every action needs, and its serialization.
import { ActionError } from '../domain/errors';
import {
  handoffsFileSchema,
  describeIssues,
  STORE_VERSION,
  storeVersionFor,
  type Handoff,
  type HandoffsFile,
} from '../domain/handoffSchema';
import { HandoffIdAllocator, laterId, newUid, futureIdReason } from '../domain/handoffIds';
import { rememberRecordBytes, validateChangedRecords } from './incrementalValidation';
import { emptyStoreBytes, headFor, recordBytes, SEPARATOR, splitStoreBytes, TAIL } from './storeFormat';

/** Per-record bytes cached by object identity: records are replaced, never mutated, so only changed ones are re-serialized. */
const serialized = new WeakMap<Handoff, Buffer>();

export interface RequestMarker {
  uid: string;
  hash: string | undefined;
}

export class StoreSnapshot {
  handoffs: Handoff[];
  private readonly byId = new Map<string, number>();
  private readonly byUid = new Map<string, number>();
  private readonly markers = new Map<string, RequestMarker>();
  private allocator: HandoffIdAllocator | null = null;
  /** The highest id ever archived (handoffs.json `id_high_water`); undefined until the archive takes a record. */
  highWater: string | undefined;
  /** The highest archived number of a day, when the store can read its archive (HandoffIdAllocator's mark check). */
  archivedHighest: ((day: string) => number) | undefined;

  constructor(file: HandoffsFile) {
    this.handoffs = file.handoffs;
    this.highWater = file.id_high_water;
    const dupes: string[] = [];
    this.handoffs.forEach((h, i) => {
      if (!h.uid) this.handoffs[i] = h = { ...h, uid: newUid(Date.parse(h.created_at) || Date.now()), rev: h.rev ?? 0 };
      if (this.byId.has(h.handoff_id)) dupes.push(h.handoff_id);
      this.index(h, i);
    });
    if (dupes.length) {
      throw new ActionError(
        'store_invalid',
        `handoffs.json has duplicate handoff_id ${dupes.slice(0, 5).join(', ')}; give each record a unique id (or merge with the AgentSync merge ` +
          `driver) and retry.`,
        { duplicates: dupes },
      );
    }
  }

  /**
   * The next free ids, from one scan of the records made when a request first needs one (a claim never does). Made
   * after an archive pass, it scans what stays and starts above the raised high-water mark: still above every id used.
   */
  get ids(): HandoffIdAllocator {
    return (this.allocator ??= new HandoffIdAllocator(this.handoffs, this.highWater, undefined, this.archivedHighest));
  }

  /**
   * `data`: the file's bytes (or its text). `trusted`: the file is byte for byte what an AgentSync process wrote after
   * validating it (its stat stamp matches), so the schema pass, the largest cost of a cold start, is skipped; the
   * shape is still checked. `from.previous`: the last snapshot read or written; records whose bytes it already holds
   * are not checked again. `from.chunks`: the file split into its parts (storeFormat.splitStoreBytes); a trusted
   * file's record parts are reused as their serialization, so its records are not stringified again on the next write.
   */
  static parse(
    data: string | Buffer,
    trusted = false,
    from: { previous?: Pick<StoreSnapshot, 'handoffs'>; chunks?: readonly Buffer[] | null } = {},
  ): StoreSnapshot {
    const { previous } = from;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const chunks = from.chunks !== undefined ? from.chunks : splitStoreBytes(bytes);
    const changed = !trusted && previous && validateChangedRecords(chunks, previous.handoffs, (h) => serialized.get(h));
    if (changed) return new StoreSnapshot(changed);
    let raw: unknown;
    try {
      raw = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
    } catch (e) {
      throw new ActionError(
        'store_invalid',
        `.agentsync/handoffs.json is not valid JSON (${(e as Error).message}). Fix or restore it (git checkout), then retry; nothing was changed.`,
      );
    }
    assertReadableVersion(raw);
    if (trusted) {
      const file = raw as { version?: unknown; handoffs?: unknown; id_high_water?: unknown };
      const mark = file?.id_high_water;
      if (
        file &&
        (file.version === 1 || file.version === 2) &&
        Array.isArray(file.handoffs) &&
        (mark === undefined || typeof mark === 'string')
      ) {
        // Seeded before the constructor runs: a record it has to change (given a uid) becomes a new object, not reused.
        if (chunks && chunks.length === 2 * file.handoffs.length + 1) {
          (file.handoffs as Handoff[]).forEach((h, i) => serialized.set(h, chunks[2 * i + 1]));
        }
        return new StoreSnapshot(file as never);
      }
    }
    const parsed = handoffsFileSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ActionError(
        'store_invalid',
        `.agentsync/handoffs.json does not match the schema: ${describeIssues(parsed.error)}. Fix it by hand (the JSON schema in schemas/ helps) ` +
          `and retry; nothing was changed.`,
      );
    }
    rememberRecordBytes(chunks, parsed.data.handoffs);
    return new StoreSnapshot(parsed.data);
  }

  /** A file already checked against the schema (slicedStoreCheck.ts), with the parts it was split into. */
  static fromChecked(file: HandoffsFile, chunks: readonly Buffer[] | null): StoreSnapshot {
    rememberRecordBytes(chunks, file.handoffs);
    return new StoreSnapshot(file);
  }

  static empty(): StoreSnapshot {
    return new StoreSnapshot({ version: 1, handoffs: [] });
  }

  private index(h: Handoff, i: number): void {
    this.byId.set(h.handoff_id, i);
    if (h.uid) this.byUid.set(h.uid, i);
    for (const e of h.state_history) if (e.request_id) this.markers.set(e.request_id, { uid: h.uid!, hash: e.request_hash });
  }

  /** Finds by handoff_id or uid. */
  find(idOrUid: string): Handoff | undefined {
    const i = this.byId.get(idOrUid) ?? this.byUid.get(idOrUid);
    return i === undefined ? undefined : this.handoffs[i];
  }

  /**
   * The record a request already changed (its id is in a history entry) and that request's hash (absent in
   * entries written before hashes were recorded), for replay after a crash or without the ledger.
   */
  markerFor(requestId: string): RequestMarker | undefined {
    return this.markers.get(requestId);
  }

  insert(h: Handoff): void {
    this.handoffs.push(h);
    this.allocator?.note(h.handoff_id); // an allocator made later scans this record with the rest
    this.index(h, this.handoffs.length - 1);
  }

  replace(h: Handoff): Handoff {
    const i = this.byUid.get(h.uid!);
    if (i === undefined) throw new Error(`replace: unknown uid ${h.uid}`);
    const previous = this.handoffs[i];
    this.handoffs[i] = h;
    this.index(h, i);
    return previous;
  }

  /** Undoes an insert (the last record) or a replace, when a later step of the same request fails. */
  undoInsert(h: Handoff): void {
    const i = this.byUid.get(h.uid!);
    if (i !== this.handoffs.length - 1) throw new Error('undoInsert: not the last record');
    this.handoffs.pop();
    this.byUid.delete(h.uid!);
    this.byId.delete(h.handoff_id);
    for (const e of h.state_history) if (e.request_id) this.markers.delete(e.request_id);
  }

  /**
   * Takes records out of the store (they were just appended to the archive) and raises the high-water mark to the
   * highest of their ids. The indexes are rebuilt: archiving is a rare bulk step, not a per-request one.
   */
  removeArchived(uids: ReadonlySet<string>): void {
    let mark = this.highWater;
    const now = new Date();
    // An id dated in the future never becomes the mark: every later id would follow it.
    for (const h of this.handoffs) if (uids.has(h.uid!) && !futureIdReason(h.handoff_id, now)) mark = laterId(mark, h.handoff_id);
    this.highWater = mark;
    this.handoffs = this.handoffs.filter((h) => !uids.has(h.uid!));
    this.byId.clear();
    this.byUid.clear();
    this.markers.clear();
    this.handoffs.forEach((h, i) => this.index(h, i));
  }

  /** The file's bytes as a list of buffers (one per record, cached), written with one writev: no 10 MB string is built. */
  serializeChunks(): Buffer[] {
    if (this.handoffs.length === 0) return [emptyStoreBytes(this.highWater)];
    const chunks: Buffer[] = [headFor(this.highWater, storeVersionFor(this.handoffs))];
    this.handoffs.forEach((h, i) => {
      let b = serialized.get(h);
      if (b === undefined) serialized.set(h, (b = recordBytes(h)));
      if (i > 0) chunks.push(SEPARATOR);
      chunks.push(b);
    });
    chunks.push(TAIL);
    return chunks;
  }

  serialize(): string {
    return Buffer.concat(this.serializeChunks()).toString('utf8');
  }
}

/**
 * A store written by a newer AgentSync (a higher `version`) is refused whole, never half read or rewritten in an older
 * shape (docs/contract.md §3).
 */
function assertReadableVersion(raw: unknown): void {
  const v = raw && typeof raw === 'object' ? (raw as { version?: unknown }).version : undefined;
  if (typeof v !== 'number' || v <= STORE_VERSION) return;
  throw new ActionError(
    'store_too_new',
    `.agentsync/handoffs.json is store version ${v}, written by a newer AgentSync; this one reads up to version ${STORE_VERSION}. ` +
      'Upgrade AgentSync (every clone of this repository); nothing was changed.',
    { version: v, readable: STORE_VERSION },
  );
}
