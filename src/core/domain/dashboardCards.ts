// The dashboard's cards (docs/agentsync-documentation.md, "The dashboard"): the Handoffs tree's groups, one card per
// handoff, with the buttons the caller says it offers (the action catalog's). Plain data, so the webview only renders
// it; grouping, chains and staleness come from attentionTree and handoffAttention, the modules the tree uses.
import { sessionWhere } from './agentSession';
import { displayAgent } from './agentId';
import type { AgentSyncConfig } from './configSchema';
import { buildAttentionTree, chainedUnder } from './attentionTree';
import { ATTENTION_GROUP_LABELS, ATTENTION_GROUPS, showsWhenEmpty, staleReason, type AttentionGroup } from './handoffAttention';
import type { Handoff } from './handoffSchema';

export interface DashboardCard {
  /** Names the card across pushes: the folder and the handoff (see cardKey). */
  key: string;
  handoffId: string;
  summary: string;
  status: Handoff['status'];
  from: string;
  to: string;
  ownerMode: Handoff['owner_mode'];
  priority: string | null;
  claimedBy: string | null;
  /** Why it is stale, or null. */
  stale: string | null;
  /** Ids of the open handoffs passed on from this one, and of its withdrawn passes (`HO-… (withdrawn)`). */
  chained: string[];
  /** The buttons, by move name (requests/catalog/dashboardMoves.ts), in the order drawn. */
  actions: string[];
  /** The refusal of the last button pressed on this card, until the next one. */
  refusal: string | null;
}

export interface DashboardGroup {
  group: AttentionGroup;
  label: string;
  /** Handoffs in the group, the passed-on ones drawn on their parent card included (the tree's count). */
  count: number;
  cards: DashboardCard[];
}

export interface CardsInput {
  root: string;
  handoffs: readonly Handoff[];
  config: AgentSyncConfig;
  me: string;
  now: Date;
  /** The buttons a card of this handoff offers, by move name (the catalog's, requests/catalog/dashboardMoves.ts). */
  actionsFor: (h: Handoff) => string[];
  /** Refusal texts by cardKey. */
  refusals: ReadonlyMap<string, string>;
}

export function cardKey(root: string, handoffId: string): string {
  return `${root}\n${handoffId}`;
}

/** The groups of the Handoffs tree, in its order (review and other only when not empty), as cards. */
export function dashboardGroups(input: CardsInput): DashboardGroup[] {
  const { root, config, me, now } = input;
  const tree = buildAttentionTree(input.handoffs, { me, humans: config.humans, config, now });
  const groups: DashboardGroup[] = [];
  for (const g of ATTENTION_GROUPS) {
    const index = tree[g];
    const handoffs = index.handoffs;
    if (handoffs.length === 0 && !showsWhenEmpty(g)) continue;
    const cards = index.top.map((h): DashboardCard => {
      const key = cardKey(root, h.handoff_id);
      return {
        key,
        handoffId: h.handoff_id,
        summary: h.summary,
        status: h.status,
        from: displayAgent(h.from_agent),
        to: h.to_agents.map(displayAgent).join(', '),
        ownerMode: h.owner_mode,
        priority: h.priority ?? null,
        claimedBy: h.claimed_by ? displayAgent(h.claimed_by) + sessionWhere(h.claimed_session) : null,
        stale: staleReason(h, config, now),
        chained: chainedUnder(index, h).map((c) => (c.status === 'withdrawn' ? `${c.handoff_id} (withdrawn)` : c.handoff_id)),
        actions: input.actionsFor(h),
        refusal: input.refusals.get(key) ?? null,
      };
    });
    groups.push({ group: g, label: ATTENTION_GROUP_LABELS[g], count: handoffs.length, cards });
  }
  return groups;
}
