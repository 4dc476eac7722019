// listHandoffs: filter by status, owner and openness; read-only.
import { isTerminal, type Handoff } from '../../domain/handoffSchema';
import type { ParamsOf } from '../requestParams';
import type { StoreTransaction } from '../../store/storeTransaction';

export function filterHandoffs(
  handoffs: readonly Handoff[],
  p: { status?: string | string[]; agent?: string; open?: boolean; limit?: number },
): Handoff[] {
  const statuses = p.status === undefined ? null : new Set(Array.isArray(p.status) ? p.status : [p.status]);
  const out: Handoff[] = [];
  for (const h of handoffs) {
    if (statuses && !statuses.has(h.status)) continue;
    if (p.agent && !h.to_agents.includes(p.agent)) continue;
    if (p.open !== undefined && p.open === isTerminal(h.status)) continue;
    out.push(h);
    if (p.limit && out.length >= p.limit) break;
  }
  return out;
}

export function listHandoffs(tx: StoreTransaction, p: ParamsOf<'listHandoffs'>): { count: number; handoffs: Handoff[] } {
  const handoffs = filterHandoffs(tx.handoffs, p);
  return { count: handoffs.length, handoffs };
}
