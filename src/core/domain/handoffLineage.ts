// Loops across the graph (docs/contract.md §6, "Loops across the graph"): work an agent creates or passes while it
// holds exactly one handoff comes from that handoff, so it records it as its parent (`parent_uid`), and the loop rules
// run over the agents of that lineage, across separate handoffs (A→B, B→C, C→A as three creates is E003), not only
// within one pass chain. A human's request starts a new lineage: a human in between is what ends a storm.
import { isHuman } from './agentId';
import { isHolder, type AgentSession } from './agentSession';
import { delegationError } from './delegationErrors';
import { isReturnedWork } from './lifecycle';
import type { Handoff } from './handoffSchema';

/** How far up a lineage is followed: far past any depth a policy allows, and a corrupted store's loop stops here. */
const MAX_WALK = 64;

/** The handoffs `agent` holds in the caller's session: claimed by it, in progress, and (when the claim named one) this session. */
export function heldBySession(handoffs: readonly Handoff[], agent: string, session: AgentSession | null | undefined): Handoff[] {
  return handoffs.filter((h) => h.status === 'in_progress' && h.claimed_by === agent && isHolder(h, agent, session));
}

/**
 * The handoff new work by `agent` comes from: the one it holds in this session. None for a human (humans are exempt),
 * nor when it holds none or several (which one would be a guess).
 */
export function inferredParent(
  handoffs: readonly Handoff[],
  agent: string,
  session: AgentSession | null | undefined,
  humans: readonly string[],
): Handoff | null {
  if (!agent || isHuman(agent, humans)) return null;
  const held = heldBySession(handoffs, agent, session);
  return held.length === 1 ? held[0] : null;
}

/** Who works on `h`: its holder, else the receiver of a pass, else its one owner. */
function receiverOf(h: Handoff): string | null {
  return h.claimed_by ?? (h.chain?.length ? h.chain[h.chain.length - 1] : h.to_agents.length === 1 ? h.to_agents[0] : null);
}

/**
 * The agents along the lineage that ends in `h`, first first: each handoff adds the agent it came from and the one
 * working on it, a handoff carrying work back (a return, a join) goes back to where its receiver stood, and a handoff
 * from a human starts the lineage again.
 */
export function lineageAgents(h: Handoff, find: (uid: string) => Handoff | undefined, humans: readonly string[]): string[] {
  const path: Handoff[] = [h];
  const seen = new Set<Handoff>(path);
  for (let at = h; at.parent_uid && path.length < MAX_WALK;) {
    const up = find(at.parent_uid);
    if (!up || seen.has(up)) break;
    seen.add(up);
    path.push(up);
    at = up;
  }
  let agents: string[] = [];
  const add = (a: string | null) => {
    if (a && agents[agents.length - 1] !== a) agents.push(a);
  };
  for (const r of path.reverse()) {
    if (isHuman(r.from_agent, humans)) agents = [];
    if (isReturnedWork(r) || r.reason === 'return') {
      const back = r.to_agents[0];
      const at = agents.lastIndexOf(back);
      if (at >= 0) agents = agents.slice(0, at + 1);
      else add(back);
      continue;
    }
    if (!isHuman(r.from_agent, humans)) add(r.from_agent);
    add(receiverOf(r));
  }
  return agents;
}

/** The agents so far when `from` makes new work for `to` out of `parent`: the lineage, then `from`, then `to`. */
export function proposedLineage(
  parent: Handoff,
  from: string,
  to: string,
  find: (uid: string) => Handoff | undefined,
  humans: readonly string[],
): string[] {
  const agents = lineageAgents(parent, find, humans);
  if (agents[agents.length - 1] !== from) agents.push(from);
  return [...agents, to];
}

/** Checks a proposed chain of one pass (agents so far, then the receiver) against the loop rules (E002, E003). */
export function checkChain(chain: readonly string[], maxDepth: number): void {
  const shown = chain.join(' → ');
  const depth = chain.length - 1;
  if (depth > maxDepth) {
    throw delegationError(
      'CHAIN_DEPTH_EXCEEDED',
      `Pass-over chain too deep (${depth}/${maxDepth}): ${shown}. Finish the work or return it instead of passing it on.`,
      { chain },
    );
  }
  const to = chain[chain.length - 1];
  const from = chain[chain.length - 2];
  if (to === from) throw delegationError('CYCLE_DETECTED', `${to} cannot pass work to itself: ${shown}.`, { chain });
  if (chain.slice(0, -1).includes(to)) {
    throw delegationError(
      'CYCLE_DETECTED',
      `Cycle detected: ${to} is already in the chain ${shown}. Use returnHandoff to give work back to the agent that passed it.`,
      { chain },
    );
  }
}

/**
 * The loop rules over a lineage of separate handoffs (proposedLineage): the receiver already in it is E003, more
 * hops than `maxDepth` is E002. Work for oneself is no loop (a create may name its own agent), and neither is work
 * handed back to the agent the held work came from while no agent repeats yet (A→B, B→A: the return to the origin);
 * handing it out to the same agent again after that is the ping-pong (A→B→A→B, E003).
 */
export function checkLineage(lineage: readonly string[], maxDepth: number, parent: Handoff): void {
  const shown = lineage.join(' → ');
  const to = lineage[lineage.length - 1];
  const from = lineage[lineage.length - 2];
  const via = `this work comes from ${parent.handoff_id}, which ${from} holds`;
  const details = { chain: lineage, parent: parent.handoff_id };
  const prior = lineage.slice(0, -1);
  if (to === from || (prior[prior.length - 2] === to && new Set(prior).size === prior.length)) return;
  if (prior.includes(to)) {
    throw delegationError(
      'CYCLE_DETECTED',
      `Cycle detected: ${to} is already in the lineage ${shown} (${via}). Finish ${parent.handoff_id} and report it ` +
        `(completeHandoff, or returnHandoff for passed work) instead of handing work back along the lineage; a human may create it if it is needed.`,
      details,
    );
  }
  const depth = lineage.length - 1;
  if (depth > maxDepth) {
    throw delegationError(
      'CHAIN_DEPTH_EXCEEDED',
      `Handoff lineage too deep (${depth}/${maxDepth}): ${shown} (${via}). Finish ${parent.handoff_id} or return it instead of handing the work on.`,
      details,
    );
  }
}
