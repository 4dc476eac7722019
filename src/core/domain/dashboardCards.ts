// The dashboard's cards (docs/agentsync-documentation.md, "The dashboard"): the Handoffs tree's groups, one card per
// handoff, and the buttons each card offers. Plain data, so the webview only renders it; grouping, chains, staleness
// and which move a status allows come from attentionTree, handoffAttention and lifecycle, the modules the tree uses.
import { displayAgent } from './agentId';
import type { AgentSyncConfig } from './configSchema';
import { buildAttentionTree, chainedUnder } from './attentionTree';
import { ATTENTION_GROUP_LABELS, ATTENTION_GROUPS, showsWhenEmpty, staleReason, type AttentionGroup } from './handoffAttention';
import { LIMITS, type Handoff } from './handoffSchema';
import { allowsMove, awaitsAssignment } from './lifecycle';

/** The buttons of a card, in the order drawn. */
export const CARD_ACTIONS = ['claim', 'start', 'complete', 'approve', 'skip', 'assign'] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

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
  /** Ids of the open handoffs passed on from this one in the same group. */
  chained: string[];
  actions: CardAction[];
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
  /** The handoff my active session was started from, if any (no Start button on it). */
  mySessionHandoff: string | null;
  /** Refusal texts by cardKey. */
  refusals: ReadonlyMap<string, string>;
}

export function cardKey(root: string, handoffId: string): string {
  return `${root}\n${handoffId}`;
}

/**
 * The buttons a card offers by its status alone, like the tree's menus: whether this agent may make the move is the
 * dispatcher's decision when the button is pressed (a refusal is shown on the card). Start needs the handoff held by
 * me and not already the subject of my active session.
 */
export function cardActions(h: Handoff, me: string, mySessionHandoff: string | null): CardAction[] {
  const out: CardAction[] = [];
  if (allowsMove(h.status, 'claim')) out.push('claim');
  if (h.status === 'in_progress' && h.claimed_by === me && mySessionHandoff !== h.handoff_id) out.push('start');
  if (allowsMove(h.status, 'complete')) out.push('complete');
  if (allowsMove(h.status, 'approve')) out.push('approve');
  if (h.status === 'queued' && allowsMove(h.status, 'block')) out.push('skip');
  // Work nobody could be routed to: the tree's Assign Handoff… (a human picks the owners).
  if (awaitsAssignment(h)) out.push('assign');
  return out;
}

const SKIPPED = 'skipped: ';
/** The longest reason a Skip may give: with its prefix it fits a history reason (LIMITS.reason). */
export const MAX_SKIP_REASON = LIMITS.reason - SKIPPED.length;

/** The history reason of a Skip: the same form as a handoff skipped when created (docs, "History reasons"). */
export function skipReason(why: string): string {
  return `${SKIPPED}${why.trim()}`;
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
        claimedBy: h.claimed_by ? displayAgent(h.claimed_by) : null,
        stale: staleReason(h, config, now),
        chained: chainedUnder(index, h).map((c) => c.handoff_id),
        actions: cardActions(h, me, input.mySessionHandoff),
        refusal: input.refusals.get(key) ?? null,
      };
    });
    groups.push({ group: g, label: ATTENTION_GROUP_LABELS[g], count: handoffs.length, cards });
  }
  return groups;
}
