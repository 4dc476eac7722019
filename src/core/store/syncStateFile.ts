// .agentsync/sync.json (runtime, git-ignored): what this clone knows of the shared state (docs/contract.md §13):
// the last commit it fetched or pushed and when, the last failure, the writes applied offline and still waiting
// for the remote (pending), and the ones the remote revoked that their agents have not been told of yet.
import * as fs from 'node:fs';
import { writeFileAtomic } from '../disk/atomicFile';
import { isPendingWrite, isRenumbered, isRevocation, isSettled, isUnsettled } from './syncEntries';
import type { PendingWrite, Renumbered, Revocation, Settled, Unsettled } from './syncEntries';

export type { PendingWrite, Renumbered, Revocation, Settled, Unsettled } from './syncEntries';

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
  /** Writes whose outcome on the remote is not known yet (pushOutcome.ts). */
  unsettled?: Unsettled[];
  /** What the last contacts found of them (the newest kept). */
  settled?: Settled[];
  /** Whether the last push reached the remote over ssh (gitRemote.ts, sshUrl): 'other' spares a config lookup a write. */
  transport?: 'ssh' | 'other';
}

const EMPTY: SyncLocalState = { commit: null, fetched_at: null, last_error: null, pending: [], revoked: [] };
/** Revocations kept for telling; the oldest go first past this many. */
const MAX_REVOKED = 200;

/** What `file` (.agentsync/sync.json) says; the empty state when it is missing, not a regular file or not JSON. */
export function readSyncState(file: string): SyncLocalState {
  return readSyncStateChecked(file).state;
}

/** The state, and the entries dropped because they do not parse (syncEntries.ts): each a short description. */
export function readSyncStateChecked(file: string): { state: SyncLocalState; dropped: string[] } {
  try {
    if (!fs.lstatSync(file).isFile()) return { state: { ...EMPTY, pending: [], revoked: [] }, dropped: [] };
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Record<keyof SyncLocalState, unknown>>;
    const dropped: string[] = [];
    const state: SyncLocalState = {
      commit: typeof raw.commit === 'string' ? raw.commit : null,
      ...(isSource(raw.source) ? { source: raw.source } : {}),
      fetched_at: typeof raw.fetched_at === 'string' ? raw.fetched_at : null,
      last_error: raw.last_error && typeof raw.last_error === 'object' ? (raw.last_error as SyncLocalState['last_error']) : null,
      pending: validEntries(raw.pending, isPendingWrite, 'pending', dropped),
      revoked: validEntries(raw.revoked, isRevocation, 'revoked', dropped),
      ...(Array.isArray(raw.renumbered) ? { renumbered: validEntries(raw.renumbered, isRenumbered, 'renumbered', dropped) } : {}),
      ...(Array.isArray(raw.unsettled) ? { unsettled: validEntries(raw.unsettled, isUnsettled, 'unsettled', dropped) } : {}),
      ...(Array.isArray(raw.settled) ? { settled: validEntries(raw.settled, isSettled, 'settled', dropped) } : {}),
      ...(raw.transport === 'ssh' || raw.transport === 'other' ? { transport: raw.transport } : {}),
    };
    return { state, dropped };
  } catch {
    return { state: { ...EMPTY, pending: [], revoked: [] }, dropped: [] };
  }
}

export class SyncStateFile {
  private warned = false;
  /** The state as last read or written, and the file's stat then: a batch reads and parses the file once. */
  private cached: { key: string; state: SyncLocalState } | null = null;

  constructor(
    private readonly file: string,
    /** Told once per process when entries that do not parse were dropped. */
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** The state (do not change it: update() does). Parsed again only when the file changed since it was last read or written. */
  read(): SyncLocalState {
    const key = statKey(this.file);
    if (key && this.cached?.key === key) return this.cached.state;
    const { state, dropped } = readSyncStateChecked(this.file);
    this.cached = key ? { key, state } : null;
    if (dropped.length && !this.warned) {
      this.warned = true;
      this.warn(
        `${this.file}: dropped ${dropped.length} entr${dropped.length === 1 ? 'y' : 'ies'} that do not parse (${dropped.slice(0, 3).join('; ')}); ` +
          'the rest of the file is used, and the next write rewrites it without them',
      );
    }
    return state;
  }

  /** Read, change, write (call under the store lock). */
  update(change: (s: SyncLocalState) => void): SyncLocalState {
    const s = structuredClone(this.read());
    change(s);
    if (s.revoked.length > MAX_REVOKED) s.revoked = s.revoked.slice(-MAX_REVOKED);
    if (s.renumbered && s.renumbered.length > MAX_REVOKED) s.renumbered = s.renumbered.slice(-MAX_REVOKED);
    if (s.settled && s.settled.length > MAX_REVOKED) s.settled = s.settled.slice(-MAX_REVOKED);
    this.cached = null;
    writeFileAtomic(this.file, JSON.stringify(s, null, 2) + '\n');
    const key = statKey(this.file);
    if (key) this.cached = { key, state: s };
    return s;
  }
}

/** A regular file's identity and version (inode, size, nanosecond mtime); null when it is not one. */
function statKey(file: string): string | null {
  try {
    const st = fs.lstatSync(file, { bigint: true });
    return st.isFile() ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : null;
  } catch {
    return null;
  }
}

function validEntries<T>(list: unknown, valid: (v: unknown) => v is T, field: string, dropped: string[]): T[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    dropped.push(`${field} is not a list`);
    return [];
  }
  const out: T[] = [];
  list.forEach((v, i) => (valid(v) ? out.push(v) : dropped.push(`${field}[${i}]`)));
  return out;
}

function isSource(v: unknown): v is { remote: string; ref: string } {
  const s = v as { remote?: unknown; ref?: unknown } | null;
  return !!s && typeof s === 'object' && typeof s.remote === 'string' && typeof s.ref === 'string';
}
