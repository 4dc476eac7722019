// What sync.json records once the remote decided a batch (docs/contract.md §13): the writes applied offline that it
// confirmed leave the pending list, those it revoked are kept to be told to their agents, provisional ids it renumbered
// are noted, and the commit this clone now follows is the last known one.
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { recordMovedIds } from '../movedIds';
import type { Replayed } from '../stateAuthority';
import type { StoreTransaction } from '../storeTransaction';
import type { Revocation, SyncLocalState } from '../syncStateFile';

export interface Contact {
  /** What each write applied offline answered when replayed on the shared state. */
  replayed: readonly Replayed[];
  renumbered: readonly { from: string; to: string; uid: string }[];
  commit: string | null;
  remote: string;
  ref: string;
  /** When (ISO time). */
  at: string;
  /** How the push reached the remote, when it said (gitRemote.ts, sshUrl). */
  over?: 'ssh' | 'other' | null;
}

/** Updates `s` (sync.json, read under its own update) for a contact whose state this clone adopted. */
export function settleContact(s: SyncLocalState, c: Contact): void {
  const byId = new Map(s.pending.map((p) => [p.request_id, p]));
  const revoked: Revocation[] = [];
  for (const r of c.replayed) {
    if (r.ok) continue;
    const p = byId.get(r.replay.requestId);
    revoked.push({
      request_id: r.replay.requestId,
      action: p?.action ?? '(unknown)',
      agent: p?.agent ?? null,
      handoff_id: p?.handoff_id ?? null,
      reason: r.reason ?? 'internal_error',
      message: r.message ?? '',
      revoked_at: c.at,
    });
  }
  const settled = new Set(c.replayed.map((r) => r.replay.requestId));
  s.pending = s.pending.filter((p) => !settled.has(p.request_id));
  s.revoked.push(...revoked);
  if (c.renumbered.length) s.renumbered = [...(s.renumbered ?? []), ...c.renumbered.map((r) => ({ ...r, at: c.at }))];
  s.commit = c.commit;
  s.source = { remote: c.remote, ref: c.ref };
  s.fetched_at = c.at;
  s.last_error = null;
  if (c.over) s.transport = c.over;
}

/**
 * Provisional ids the shared state gave other handoffs (an offline create's, a joined record's): an agent holding one is
 * refused id_moved until told (movedIds.ts), naming the handoff that holds it now.
 */
export function recordRenumbered(layout: WorkspaceLayout, tx: StoreTransaction, renumbered: Contact['renumbered'], at: string): void {
  recordMovedIds(
    layout,
    renumbered.map((r) => {
      const holder = tx.find(r.from);
      return { id: r.from, uid: r.uid, moved_to: r.to, at, by: 'sync' as const, ...(holder?.uid ? { holder_uid: holder.uid } : {}) };
    }),
  );
}
