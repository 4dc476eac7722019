// What the editor's dashboard draws (docs/agentsync-documentation.md, "The dashboard"): the Handoffs tree's groups
// as cards and the buttons each card offers; sessions, leases and health come from dashboardActivity.ts. Plain data, so the webview only
// renders it; every rule (grouping, staleness, which move a status allows) comes from the core's own modules.
import { displayAgent } from './agentId';
import {
  ATTENTION_GROUP_LABELS,
  ATTENTION_GROUPS,
  chainedFrom,
  chainRoots,
  groupByAttention,
  showsWhenEmpty,
  staleReason,
} from './handoffAttention';
import type { AttentionGroup } from './handoffAttention';
import type { AgentSyncConfig } from './configSchema';
import type { Handoff } from './handoffSchema';
import { boundedReason } from './handoffMutation';
import { allowsMove } from './lifecycle';
import { folderActivity, type DashboardHealth, type DashboardLease, type DashboardSession } from './dashboardActivity';
import { activeSessionsOf } from './sessions/sessionState';

/** The buttons of a card, in the order drawn. */
export const CARD_ACTIONS = ['claim', 'start', 'complete', 'approve', 'skip'] as const;
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

export interface DashboardFolder {
  root: string;
  name: string;
  initialized: boolean;
  problem: string | null;
  groups: DashboardGroup[];
  sessions: DashboardSession[];
  leases: DashboardLease[];
  health: DashboardHealth | null;
}

export interface DashboardModel {
  /** The agent this window acts as, for display. */
  me: string;
  identityProblem: string | null;
  trusted: boolean;
  folders: DashboardFolder[];
}

export interface DashboardFolderInput {
  root: string;
  name: string;
  initialized: boolean;
  problem: string | null;
  handoffs: readonly Handoff[];
  config: AgentSyncConfig;
  /** .agentsync/state.json as read (a derived file: anything unexpected in it is ignored). */
  state: Record<string, unknown>;
}

export interface DashboardInput {
  me: string;
  identityProblem: string | null;
  trusted: boolean;
  now: Date;
  folders: readonly DashboardFolderInput[];
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
  return out;
}

/** The history reason of a Skip: the same form as a handoff skipped when created (docs, "History reasons"). */
export function skipReason(why: string): string {
  return boundedReason(`skipped: ${why.trim()}`);
}

function folderModel(f: DashboardFolderInput, input: DashboardInput): DashboardFolder {
  const mySessionHandoff = activeSessionsOf(f.state).get(input.me)?.handoffId ?? null;
  const ctx = { me: input.me, humans: f.config.humans, config: f.config, now: input.now };
  const buckets = groupByAttention(f.handoffs, ctx);
  const groups: DashboardGroup[] = [];
  for (const g of ATTENTION_GROUPS) {
    const handoffs = buckets.get(g)!;
    if (!f.initialized || (handoffs.length === 0 && !showsWhenEmpty(g))) continue;
    const cards = chainRoots(handoffs).map((h): DashboardCard => {
      const key = cardKey(f.root, h.handoff_id);
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
        stale: staleReason(h, f.config, input.now),
        chained: chainedFrom(h, handoffs).map((c) => c.handoff_id),
        actions: cardActions(h, input.me, mySessionHandoff),
        refusal: input.refusals.get(key) ?? null,
      };
    });
    groups.push({ group: g, label: ATTENTION_GROUP_LABELS[g], count: handoffs.length, cards });
  }
  const { sessions, leases, health } = folderActivity(f.handoffs, f.state, input.me, input.now);
  return {
    root: f.root,
    name: f.name,
    initialized: f.initialized,
    problem: f.problem,
    groups,
    sessions,
    leases,
    health,
  };
}

export function dashboardModel(input: DashboardInput): DashboardModel {
  return {
    me: displayAgent(input.me),
    identityProblem: input.identityProblem,
    trusted: input.trusted,
    folders: input.folders.map((f) => folderModel(f, input)),
  };
}
