// The shapes of sync.json's lists (syncStateFile.ts), checked one entry at a time: sync.json is a file on disk like any
// other, and one entry that does not parse (a hand edit, a file from another version) is dropped with a warning,
// never turned into a failure of every write that replays or reads the list.
import * as z from 'zod';

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

// One schema per entry kind; loose objects, so a field a newer build added is kept on rewrite, not stripped.
const text = z.string().min(1);
const textOrNull = z.string().nullable();
const object = z.record(z.string(), z.unknown());

const pendingWriteSchema = z
  .looseObject({
    request_id: text,
    action: text,
    agent: textOrNull,
    handoff_id: textOrNull,
    request: object,
    applied_at: z.string(),
    created: z.looseObject({ handoff_id: text, uid: text, created_at: z.string() }).optional(),
  })
  // The request replayed must be the action the entry names.
  .refine((v) => v.request.action === v.action);

const revocationSchema = z.looseObject({
  request_id: text,
  action: z.string(),
  agent: textOrNull,
  handoff_id: textOrNull,
  reason: z.string(),
  message: z.string(),
  revoked_at: z.string(),
});

const renumberedSchema = z.looseObject({ from: text, to: text, uid: text, at: z.string() });

const unsettledSchema = z.looseObject({
  request_id: text,
  action: z.string(),
  agent: textOrNull,
  handoff_id: textOrNull,
  commit: z.string().regex(/^[0-9a-f]{40,64}$/),
  sent_at: z.string(),
  hash: z.string().optional(),
});

const settledSchema = z.looseObject({
  request_id: text,
  action: z.string(),
  handoff_id: textOrNull,
  outcome: z.enum(['applied', 'not_applied']),
  settled_at: z.string(),
});

/** A type guard from a schema: the entry is kept as it was read (no field stripped or rewritten). */
const guard =
  <T>(schema: z.ZodType) =>
  (v: unknown): v is T =>
    schema.safeParse(v).success;

export const isPendingWrite = guard<PendingWrite>(pendingWriteSchema);
export const isRevocation = guard<Revocation>(revocationSchema);
export const isRenumbered = guard<Renumbered>(renumberedSchema);
export const isUnsettled = guard<Unsettled>(unsettledSchema);
export const isSettled = guard<Settled>(settledSchema);
