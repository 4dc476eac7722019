// An in-memory view of handoffs.json with the indexes every action needs, and its serialization.
import { ActionError } from '../domain/errors';
import { handoffsFileSchema, describeIssues, type Handoff, type HandoffsFile } from '../domain/handoffSchema';
import { HandoffIdAllocator, newUid } from '../domain/handoffIds';
import { rememberRecordTexts, validateChangedRecords } from './incrementalValidation';
import { splitRecordChunks } from './recordChunks';

/** Per-record JSON is cached by object identity: records are replaced, never mutated, so only changed ones are re-serialized. */
const serialized = new WeakMap<Handoff, Buffer>();
const HEAD = Buffer.from('{\n  "version": 1,\n  "handoffs": [\n');
const SEPARATOR = Buffer.from(',\n');
const TAIL = Buffer.from('\n  ]\n}\n');

/**
 * A trusted file is exactly what serializeChunks wrote, so its text splits at the top-level record boundaries
 * (recordChunks); reusing those bytes spares re-stringifying every record.
 */
function seedSerializedFromText(text: string, handoffs: readonly Handoff[]): void {
  const chunks = splitRecordChunks(text, handoffs.length);
  chunks?.forEach((chunk, i) => {
    const h = handoffs[i];
    // A record the constructor had to change (e.g. given a uid) no longer matches its text: leave it to stringify.
    if (chunk.includes(`"handoff_id": "${h.handoff_id}"`) && chunk.includes(`"uid": "${h.uid}"`)) serialized.set(h, Buffer.from(chunk));
  });
}

export interface RequestMarker {
  uid: string;
  hash: string | undefined;
}

export class StoreSnapshot {
  readonly handoffs: Handoff[];
  private readonly byId = new Map<string, number>();
  private readonly byUid = new Map<string, number>();
  private readonly markers = new Map<string, RequestMarker>();
  readonly ids: HandoffIdAllocator;

  constructor(file: HandoffsFile) {
    this.handoffs = file.handoffs;
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
    this.ids = new HandoffIdAllocator(this.handoffs);
  }

  /**
   * `trusted`: the file is byte for byte what an AgentSync process wrote after validating it (its stat stamp
   * matches), so the schema pass, the largest cost of a cold start, is skipped; the shape is still checked.
   * `previous`: the last snapshot read or written; records whose text it already holds are not checked again.
   */
  static parse(text: string, trusted = false, previous?: StoreSnapshot): StoreSnapshot {
    const changed = !trusted && previous && validateChangedRecords(text, previous.handoffs, (h) => serialized.get(h)?.toString('utf8'));
    if (changed) return new StoreSnapshot(changed);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new ActionError(
        'store_invalid',
        `.agentsync/handoffs.json is not valid JSON (${(e as Error).message}). Fix or restore it (git checkout), then retry; nothing was changed.`,
      );
    }
    if (trusted) {
      const file = raw as { version?: unknown; handoffs?: unknown };
      if (file && file.version === 1 && Array.isArray(file.handoffs)) {
        const snapshot = new StoreSnapshot(file as never);
        seedSerializedFromText(text, snapshot.handoffs);
        return snapshot;
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
    rememberRecordTexts(text, parsed.data.handoffs);
    return new StoreSnapshot(parsed.data);
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
    this.ids.note(h.handoff_id);
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

  /** The file's bytes as a list of buffers (one per record, cached), written with one writev: no 10 MB string is built. */
  serializeChunks(): Buffer[] {
    if (this.handoffs.length === 0) return [Buffer.from('{\n  "version": 1,\n  "handoffs": []\n}\n')];
    const chunks: Buffer[] = [HEAD];
    this.handoffs.forEach((h, i) => {
      let b = serialized.get(h);
      if (b === undefined) {
        b = Buffer.from('    ' + JSON.stringify(h, null, 2).replace(/\n/g, '\n    '));
        serialized.set(h, b);
      }
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
