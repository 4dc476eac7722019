// listHandoffs: filter by status, owner and openness; one handoff by id; with `archived`, the archive too. Read-only.
// With `limit` or `cursor` the answer is a page (docs/contract.md §8): handoffs in creation order (their uid, a
// ULID), the ones after `cursor`, at most `limit`, with `total` and `next_cursor` (the last uid of the page) when
// more follow. A uid cursor stays right while the store changes between pages: a handoff created meanwhile comes
// on a later page, one archived meanwhile is skipped, and none comes twice.
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
export interface HandoffPage {
  count: number;
  handoffs: Handoff[];
  archived?: number;
  /** Paged answers: how many match in all, and where the next page starts (absent on the last page). */
  total?: number;
  next_cursor?: string;
}

/** The page of `matches` after `cursor`, at most `limit` long, in uid order. */
export function pageOf(
  matches: readonly Handoff[],
  cursor: string | undefined,
  limit: number | undefined,
): Required<Pick<HandoffPage, 'total'>> & HandoffPage {
  // Every record read from the store or the archive has a uid (storeSnapshot.ts gives 0.3 records one on load).
  const key = (h: Handoff) => h.uid ?? '';
  const sorted = [...matches].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const after = cursor === undefined ? sorted : sorted.filter((h) => key(h) > cursor);
  const handoffs = limit === undefined ? after : after.slice(0, limit);
  const more = handoffs.length < after.length;
  return { count: handoffs.length, handoffs, total: matches.length, ...(more ? { next_cursor: key(handoffs[handoffs.length - 1]) } : {}) };
}

export function listHandoffs(tx: StoreTransaction, p: ParamsOf<'listHandoffs'>): HandoffPage {
  const ref = p.handoffId ?? p.handoff_id;
  if (ref === undefined && (p.limit !== undefined || p.cursor !== undefined)) {
    const unpaged = listHandoffs(tx, { ...p, limit: undefined, cursor: undefined });
    return { ...pageOf(unpaged.handoffs, p.cursor, p.limit), ...(p.archived ? { archived: unpaged.archived } : {}) };
  }
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
