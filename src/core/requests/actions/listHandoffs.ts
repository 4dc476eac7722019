// listHandoffs: filter by status, owner and openness; one handoff by id; with `archived`, the archive too. Read-only.
import { isTerminal, type Handoff } from '../../domain/handoffSchema';
import type { ParamsOf } from '../requestParams';
import type { StoreTransaction } from '../../store/storeTransaction';

interface Filter {
  status?: string | string[];
  agent?: string;
  open?: boolean;
  limit?: number;
}

function matcher(p: Filter): (h: Handoff) => boolean {
  const statuses = p.status === undefined ? null : new Set(Array.isArray(p.status) ? p.status : [p.status]);
  return (h) =>
    (!statuses || statuses.has(h.status)) &&
    (!p.agent || (Array.isArray(h.to_agents) && h.to_agents.includes(p.agent))) &&
    (p.open === undefined || p.open !== isTerminal(h.status));
}

export function filterHandoffs(handoffs: readonly Handoff[], p: Filter): Handoff[] {
  const matches = matcher(p);
  const out: Handoff[] = [];
  for (const h of handoffs) {
    if (!matches(h)) continue;
    out.push(h);
    if (p.limit && out.length >= p.limit) break;
  }
  return out;
}

/**
 * `archived: true` also reads the archive (docs/agentsync-documentation.md, "The archive"): archived handoffs first,
 * oldest month first, then the store's; a handoff in both counts once, as the store's copy. `archived` in the answer
 * says how many came from the archive.
 */
export function listHandoffs(tx: StoreTransaction, p: ParamsOf<'listHandoffs'>): { count: number; handoffs: Handoff[]; archived?: number } {
  const ref = p.handoffId ?? p.handoff_id;
  if (ref !== undefined) {
    tx.assertNotMoved(ref);
    const inStore = tx.find(ref);
    const h = inStore ?? (p.archived ? tx.findAnywhere(ref) : undefined);
    const handoffs = h ? filterHandoffs([h], p) : [];
    return { count: handoffs.length, handoffs, ...(p.archived ? { archived: handoffs.length && !inStore ? 1 : 0 } : {}) };
  }
  if (!p.archived || !tx.archive) {
    const handoffs = filterHandoffs(tx.handoffs, p);
    return { count: handoffs.length, handoffs, ...(p.archived ? { archived: 0 } : {}) };
  }
  const inStore = new Set(tx.handoffs.map((h) => h.uid));
  const matches = matcher(p);
  const older = tx.archive.records((h) => !inStore.has(h.uid) && matches(h));
  const handoffs = filterHandoffs([...older, ...tx.handoffs], p);
  return { count: handoffs.length, handoffs, archived: Math.min(older.length, handoffs.length) };
}
