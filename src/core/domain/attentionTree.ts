// The Handoffs tree's read model: open handoffs bucketed by attention group, and each group's chains (parent_uid)
// indexed once, so expanding a group or a handoff is a lookup, never a scan of the store (docs/contract.md §10).
import { ATTENTION_GROUPS, groupByAttention, type AttentionContext, type AttentionGroup } from './handoffAttention';
import type { Handoff } from './handoffSchema';

export interface AttentionGroupIndex {
  /** Every open handoff of the group, in store order. */
  handoffs: Handoff[];
  /** Those not passed on from another handoff of the same group: the group's own rows. */
  top: Handoff[];
  /** Handoffs of the group by the uid of the handoff they were passed on from (shown beneath it). */
  chained: Map<string, Handoff[]>;
}

export type AttentionTree = Record<AttentionGroup, AttentionGroupIndex>;

const NONE: readonly Handoff[] = Object.freeze([]);

/** Builds every group's index in two linear passes over the store. */
export function buildAttentionTree(handoffs: readonly Handoff[], ctx: AttentionContext): AttentionTree {
  const buckets = groupByAttention(handoffs, ctx);
  const tree = {} as AttentionTree;
  const groupOfUid = new Map<string, AttentionGroup>();
  for (const g of ATTENTION_GROUPS) {
    tree[g] = { handoffs: buckets.get(g)!, top: [], chained: new Map() };
    for (const h of tree[g].handoffs) if (h.uid) groupOfUid.set(h.uid, g);
  }
  for (const g of ATTENTION_GROUPS) {
    const index = tree[g];
    for (const h of index.handoffs) {
      if (h.parent_uid && h.parent_uid !== h.uid && groupOfUid.get(h.parent_uid) === g) {
        const list = index.chained.get(h.parent_uid);
        if (list) list.push(h);
        else index.chained.set(h.parent_uid, [h]);
      } else index.top.push(h);
    }
  }
  return tree;
}

/** The handoffs of a group passed on from `h`. */
export function chainedUnder(index: AttentionGroupIndex, h: Handoff): readonly Handoff[] {
  return (h.uid && index.chained.get(h.uid)) || NONE;
}
