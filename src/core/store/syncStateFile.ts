// .agentsync/sync.json (runtime, git-ignored): what this clone knows of the shared state (docs/contract.md §13):
// the last commit it fetched or pushed and when, the last failure, the writes applied offline and still waiting
// for the remote (pending), and the ones the remote revoked that their agents have not been told of yet.
import * as fs from 'node:fs';
import { writeFileAtomic } from '../disk/atomicFile';

export interface PendingWrite {
  request_id: string;
  action: string;
  agent: string | null;
  handoff_id: string | null;
  /** The request as it was dispatched (with its request_id), replayed against the shared state on the next sync. */
  request: Record<string, unknown>;
  applied_at: string;
  /** A create's record as this clone made it offline: its id is provisional until the remote confirms it. */
  created?: { handoff_id: string; uid: string; created_at: string };
}

/** A provisional id the shared state gave another handoff: the record offline-created as `from` is now `to`. */
export interface Renumbered {
  from: string;
  to: string;
  uid: string;
  at: string;
}

export interface Revocation {
  request_id: string;
  action: string;
  agent: string | null;
  handoff_id: string | null;
  reason: string;
  message: string;
  revoked_at: string;
}

export interface SyncLocalState {
  /** The shared-state commit this clone last adopted; a fetched head must descend from it. */
  commit: string | null;
  /** The remote and ref `commit` came from (absent in files written before it was kept). */
  source?: { remote: string; ref: string };
  fetched_at: string | null;
  last_error: { reason: string; message: string; at: string } | null;
  pending: PendingWrite[];
  revoked: Revocation[];
  /** The provisional ids renumbered on reconnect (the newest kept). */
  renumbered?: Renumbered[];
}

const EMPTY: SyncLocalState = { commit: null, fetched_at: null, last_error: null, pending: [], revoked: [] };
/** Revocations kept for telling; the oldest go first past this many. */
const MAX_REVOKED = 200;

/** What `file` (.agentsync/sync.json) says; the empty state when it is missing, not a regular file or not JSON. */
export function readSyncState(file: string): SyncLocalState {
  try {
    if (!fs.lstatSync(file).isFile()) return { ...EMPTY };
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SyncLocalState>;
    return {
      commit: typeof raw.commit === 'string' ? raw.commit : null,
      ...(isSource(raw.source) ? { source: raw.source } : {}),
      fetched_at: typeof raw.fetched_at === 'string' ? raw.fetched_at : null,
      last_error: raw.last_error && typeof raw.last_error === 'object' ? raw.last_error : null,
      pending: Array.isArray(raw.pending) ? raw.pending : [],
      revoked: Array.isArray(raw.revoked) ? raw.revoked : [],
      ...(Array.isArray(raw.renumbered) ? { renumbered: raw.renumbered } : {}),
    };
  } catch {
    return { ...EMPTY, pending: [], revoked: [] };
  }
}

export class SyncStateFile {
  constructor(private readonly file: string) {}

  read(): SyncLocalState {
    return readSyncState(this.file);
  }

  /** Read, change, write (call under the store lock). */
  update(change: (s: SyncLocalState) => void): SyncLocalState {
    const s = this.read();
    change(s);
    if (s.revoked.length > MAX_REVOKED) s.revoked = s.revoked.slice(-MAX_REVOKED);
    if (s.renumbered && s.renumbered.length > MAX_REVOKED) s.renumbered = s.renumbered.slice(-MAX_REVOKED);
    writeFileAtomic(this.file, JSON.stringify(s, null, 2) + '\n');
    return s;
  }
}

function isSource(v: unknown): v is { remote: string; ref: string } {
  const s = v as { remote?: unknown; ref?: unknown } | null;
  return !!s && typeof s === 'object' && typeof s.remote === 'string' && typeof s.ref === 'string';
}
