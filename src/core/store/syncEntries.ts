// The shapes of sync.json's lists (syncStateFile.ts), checked one entry at a time: sync.json is a file on disk like any
// other, and one entry that does not parse (a hand edit, a file from another version) is dropped with a warning,
// never turned into a failure of every write that replays or reads the list.
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

/** A write whose push lost its reply, and whose settling fetch failed too: applied or not, the next contact tells. */
export interface Unsettled {
  request_id: string;
  action: string;
  agent: string | null;
  handoff_id: string | null;
  /** The commit the push sent: the remote took the write exactly when its ref holds this commit. */
  commit: string;
  sent_at: string;
  /** The request's hash: a ledger line or history marker under its request_id is this write only when it matches. */
  hash?: string;
}

/** What the next contact found of an unsettled write. */
export interface Settled {
  request_id: string;
  action: string;
  handoff_id: string | null;
  outcome: 'applied' | 'not_applied';
  settled_at: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string';

export function isPendingWrite(v: unknown): v is PendingWrite {
  if (!isObj(v) || !str(v.request_id) || !str(v.action) || !strOrNull(v.agent) || !strOrNull(v.handoff_id)) return false;
  if (!isObj(v.request) || v.request.action !== v.action || typeof v.applied_at !== 'string') return false;
  if (v.created === undefined) return true;
  return isObj(v.created) && str(v.created.handoff_id) && str(v.created.uid) && typeof v.created.created_at === 'string';
}

export function isRevocation(v: unknown): v is Revocation {
  return (
    isObj(v) &&
    str(v.request_id) &&
    typeof v.action === 'string' &&
    strOrNull(v.agent) &&
    strOrNull(v.handoff_id) &&
    typeof v.reason === 'string' &&
    typeof v.message === 'string' &&
    typeof v.revoked_at === 'string'
  );
}

export function isRenumbered(v: unknown): v is Renumbered {
  return isObj(v) && str(v.from) && str(v.to) && str(v.uid) && typeof v.at === 'string';
}

export function isUnsettled(v: unknown): v is Unsettled {
  return (
    isObj(v) &&
    str(v.request_id) &&
    typeof v.action === 'string' &&
    strOrNull(v.agent) &&
    strOrNull(v.handoff_id) &&
    typeof v.commit === 'string' &&
    /^[0-9a-f]{40,64}$/.test(v.commit) &&
    typeof v.sent_at === 'string' &&
    (v.hash === undefined || typeof v.hash === 'string')
  );
}

export function isSettled(v: unknown): v is Settled {
  return (
    isObj(v) &&
    str(v.request_id) &&
    typeof v.action === 'string' &&
    strOrNull(v.handoff_id) &&
    (v.outcome === 'applied' || v.outcome === 'not_applied') &&
    typeof v.settled_at === 'string'
  );
}
