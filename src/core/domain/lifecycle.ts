// The lifecycle (docs/contract.md §4): which status may follow which, and who may make the move.
import { isHuman } from './agentId';
import { ActionError } from './errors';
import type { Handoff, HandoffStatus } from './handoffSchema';

/** Who may perform a move: the owners (to_agents), the originator (from_agent / return_to), or anyone involved. */
export type Authority = 'owner' | 'originator' | 'involved';

interface Move {
  to: HandoffStatus;
  authority: Authority;
  /** What the move is called in messages and the audit log. */
  verb: string;
}

const OPEN_TO_ESCALATED: Move = { to: 'escalated', authority: 'involved', verb: 'escalate' };

export const TRANSITIONS: Readonly<Record<HandoffStatus, readonly Move[]>> = {
  queued: [
    { to: 'in_progress', authority: 'owner', verb: 'claim' },
    { to: 'blocked', authority: 'involved', verb: 'block' },
    OPEN_TO_ESCALATED,
  ],
  in_progress: [
    { to: 'ready_for_review', authority: 'owner', verb: 'complete' },
    { to: 'blocked', authority: 'owner', verb: 'block' },
    { to: 'queued', authority: 'owner', verb: 'release' },
    OPEN_TO_ESCALATED,
  ],
  blocked: [
    { to: 'in_progress', authority: 'involved', verb: 'unblock' },
    { to: 'queued', authority: 'involved', verb: 'unblock' },
    OPEN_TO_ESCALATED,
  ],
  ready_for_review: [
    { to: 'approved', authority: 'originator', verb: 'approve' },
    { to: 'in_progress', authority: 'originator', verb: 'return_for_revision' },
    OPEN_TO_ESCALATED,
  ],
  approved: [{ to: 'merged', authority: 'originator', verb: 'merge' }, OPEN_TO_ESCALATED],
  merged: [],
  escalated: [],
  // Reached only by withdrawPass, from any open status of passed work (domain/withdrawal.ts), never by a plain transition.
  withdrawn: [],
};

/** Whether a move named `verb` can start from `status`; who may make it is checked when it is made (assertAuthority). */
export function allowsMove(status: HandoffStatus, verb: string): boolean {
  return TRANSITIONS[status].some((m) => m.verb === verb);
}

/** Whether the handoff may still be escalated (every open status may). */
export function canEscalate(h: Handoff): boolean {
  return TRANSITIONS[h.status].some((m) => m.to === 'escalated');
}

/** Whether work may be passed on from the handoff: before its review (queued, in progress or blocked). */
export function canPassOver(h: Handoff): boolean {
  return allowsMove(h.status, 'block') || h.status === 'blocked';
}

export function legalTargets(from: HandoffStatus): HandoffStatus[] {
  return TRANSITIONS[from].map((m) => m.to);
}

export function findMove(from: HandoffStatus, to: HandoffStatus): Move {
  const move = TRANSITIONS[from].find((m) => m.to === to);
  if (!move) {
    const legal = legalTargets(from);
    throw new ActionError(
      'illegal_transition',
      `A handoff cannot go from ${from} to ${to}. ` +
        (legal.length
          ? `From ${from} it may go to: ${legal.join(', ')}.`
          : `${from} is terminal; create a follow-up handoff with parent_uid instead.`),
      { from, to, legal },
    );
  }
  return move;
}

/** A handoff made by createReturnHandoff: it carries passed-over work back (reason "return", no return of its own). */
export function isReturnedWork(h: Handoff): boolean {
  return h.reason === 'return' && !h.return_to && !!h.parent_uid && h.to_agents.length === 1;
}

/**
 * Who reviews the work: the agent it returns to. Returned work is reviewed by the agent it came back to
 * (docs/agentsync-documentation.md, "Who reviews returned work"), any other by whoever handed it out.
 */
export function originatorOf(h: Handoff): string {
  if (isReturnedWork(h)) return h.to_agents[0];
  return h.return_to ?? h.from_agent;
}

export function isInvolved(h: Handoff, agent: string): boolean {
  return h.to_agents.includes(agent) || h.from_agent === agent || h.return_to === agent || (h.chain ?? []).includes(agent);
}

/** Throws not_assigned unless `agent` holds the authority the move needs. Humans may do anything. */
export function assertAuthority(h: Handoff, authority: Authority, agent: string, humans: readonly string[], verb: string): void {
  if (isHuman(agent, humans)) return;
  if (authority === 'originator' && h.policy?.require_user_approval) {
    throw new ActionError(
      'not_assigned',
      `${agent} may not ${verb} ${h.handoff_id}: its pass-over policy has require_user_approval, so only a human may. Ask a human.`,
      { handoff_id: h.handoff_id, agent, allowed: [...humans], policy: 'require_user_approval' },
    );
  }
  const allowed =
    authority === 'owner' ? h.to_agents.includes(agent) : authority === 'originator' ? originatorOf(h) === agent : isInvolved(h, agent);
  if (allowed) return;
  const who =
    authority === 'owner'
      ? `its owners (${h.to_agents.join(', ') || 'none yet'})`
      : authority === 'originator'
        ? `its originator (${originatorOf(h)})`
        : 'an agent involved in it';
  throw new ActionError(
    'not_assigned',
    `${agent} may not ${verb} ${h.handoff_id}: only ${who} or a human may. Act as one of them, or ask a human.`,
    {
      handoff_id: h.handoff_id,
      agent,
      allowed: authority === 'owner' ? h.to_agents : authority === 'originator' ? [originatorOf(h)] : undefined,
    },
  );
}

/**
 * What the editor offers Assign on (tree, list, dashboard card): blocked because routing found nobody (no owner), not
 * a skipped handoff. The assignHandoff action itself also takes any queued handoff, for a human who reassigns on
 * purpose (CLI `assign`).
 */
export function awaitsAssignment(h: Handoff): boolean {
  return h.status === 'blocked' && h.to_agents.length === 0 && h.no_handoff_reason === null;
}
