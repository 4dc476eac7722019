// The Handoffs tree's read model (and the dashboard's): open handoffs bucketed by attention group, and the chains
// (parent_uid) indexed once, so expanding a group or a handoff is a lookup, never a scan of the store
// (docs/contract.md §10). A handoff is drawn beneath its parent wherever the parent is drawn; in its own group it is
// a row of its own unless its parent is in that group too (docs/agentsync-documentation.md, "The AgentSync view").
import { chainIndex, type ChainIndex } from './handoffChains';
import { ATTENTION_GROUPS, groupByAttention, type AttentionContext, type AttentionGroup } from './handoffAttention';
import type { Handoff } from './handoffSchema';

export interface AttentionGroupIndex {
  /** Every open handoff of the group, in store order. */
  handoffs: Handoff[];
  /** Those not passed on from another handoff of the same group: the group's own rows. */
  top: Handoff[];
  /**
   * Open handoffs of every group by the uid of the handoff they were passed on or returned from (shown beneath it), and
   * withdrawn passes of an open parent.
   */
  chained: Map<string, Handoff[]>;
  /** Every handoff's chain links, finished ones included (the tooltip's Chain). Shared by all groups. */
  chains: ChainIndex;
}

export type AttentionTree = Record<AttentionGroup, AttentionGroupIndex>;

const NONE: readonly Handoff[] = Object.freeze([]);

/** Builds every group's index in linear passes over the store. */
export function buildAttentionTree(handoffs: readonly Handoff[], ctx: AttentionContext): AttentionTree {
  const buckets = groupByAttention(handoffs, ctx);
  const chains = chainIndex(handoffs);
  const chained = new Map<string, Handoff[]>();
  const tree = {} as AttentionTree;
  const groupOfUid = new Map<string, AttentionGroup>();
  for (const g of ATTENTION_GROUPS) {
    tree[g] = { handoffs: buckets.get(g)!, top: [], chained, chains };
    for (const h of tree[g].handoffs) if (h.uid) groupOfUid.set(h.uid, g);
  }
  for (const g of ATTENTION_GROUPS) {
    const index = tree[g];
    for (const h of index.handoffs) {
      if (h.parent_uid && h.parent_uid !== h.uid && groupOfUid.has(h.parent_uid)) {
        const list = chained.get(h.parent_uid);
        if (list) list.push(h);
        else chained.set(h.parent_uid, [h]);
      }
      if (!nestedInGroup(h, g, groupOfUid, chains)) index.top.push(h);
    }
  }
  // A withdrawn pass stays beneath its open parent, marked withdrawn: nothing comes back from it, so this is where the
  // work it was passed on from shows what became of it (a fan-out's other children go on).
  for (const h of handoffs) {
    if (h.status !== 'withdrawn' || !h.parent_uid || h.parent_uid === h.uid || !groupOfUid.has(h.parent_uid)) continue;
    const list = chained.get(h.parent_uid);
    if (list) list.push(h);
    else chained.set(h.parent_uid, [h]);
  }
  return tree;
}

/**
 * True when `h` is drawn only beneath its parent: the parent is open in the same group, and walking up inside the
 * group ends (a parent loop in a corrupted store nests nothing, so no handoff disappears from its group).
 */
function nestedInGroup(h: Handoff, g: AttentionGroup, groupOfUid: Map<string, AttentionGroup>, chains: ChainIndex): boolean {
  const seen = new Set<string | undefined>([h.uid]);
  let at = h;
  while (at.parent_uid && groupOfUid.get(at.parent_uid) === g) {
    if (seen.has(at.parent_uid)) return false;
    seen.add(at.parent_uid);
    at = chains.byUid.get(at.parent_uid)!;
  }
  return at !== h;
}

/** The open handoffs passed on or returned from `h`, whatever group they are in, and its withdrawn passes. */
export function chainedUnder(index: AttentionGroupIndex, h: Handoff): readonly Handoff[] {
  return (h.uid && index.chained.get(h.uid)) || NONE;
}

/**
 * Every open handoff drawn beneath `handoffs`, at any depth and across groups, in a fixed order (parent loops end the
 * walk). A group must be redrawn when these change, not only its own handoffs: a child may sit in another group.
 */
export function drawnBelow(index: AttentionGroupIndex, handoffs: readonly Handoff[]): Handoff[] {
  const out: Handoff[] = [];
  const seen = new Set<Handoff>(handoffs);
  const stack = [...handoffs];
  while (stack.length) {
    for (const c of chainedUnder(index, stack.pop()!)) {
      if (seen.has(c)) continue;
      seen.add(c);
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}
