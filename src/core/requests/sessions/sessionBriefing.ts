// What startSession hands an agent to begin with (docs/contract.md §10a; docs/agentsync-documentation.md, "startSession"):
// its open and claimable handoffs, returns waiting for it, the latest decisions.md lines (docs/contract.md §10a: for every
// agent to read them at session start), other agents' active leases and the files those agents are working on.
import { isHolder, type AgentSession } from '../../domain/agentSession';
import * as fs from 'node:fs';
import { leaseExpired } from '../../domain/handoffAttention';
import { heldJoins, passLimits } from './delegationBriefing';
import { isTerminal, type Handoff } from '../../domain/handoffSchema';
import { hotFilesFor } from '../../domain/hotFiles';
import { originatorOf } from '../../domain/lifecycle';
import type { AgentSyncConfig } from '../../domain/configSchema';
import type { SessionRecord } from './sessionState';

export const BRIEFING_LIMITS = { handoffs: 50, decisions: 10, decisionsTailBytes: 16_384, hotFiles: 100, summaryChars: 300 } as const;

export interface BriefHandoff {
  handoff_id: string;
  status: Handoff['status'];
  from_agent: string;
  to_agents: string[];
  summary: string;
  files: string[];
  claimed_by: string | null;
  /** Where the claim was taken: the agent's session id, worktree and branch (docs/contract.md §4). */
  claimed_session: AgentSession | null;
  lease_expires_at: string | null;
  return_to: string | null;
}

export interface SessionBriefing {
  agent: string;
  /** Handoffs the agent owns or holds that are under way (claimed, blocked, in review by others). */
  open: BriefHandoff[];
  /** Queued handoffs it may claim: addressed to it (alone or shared), or auto-routed work its capabilities cover. */
  claimable: BriefHandoff[];
  /** Work that came back to it: returned handoffs, and handoffs waiting for its review as their originator. */
  returns: BriefHandoff[];
  /** The last lines of decisions.md, oldest first. */
  decisions: string[];
  /** Leases of other agents, and of other sessions of this agent, that have not run out. */
  leases: {
    handoff_id: string;
    claimed_by: string;
    claimed_session: AgentSession | null;
    lease_expires_at: string | null;
    files: string[];
  }[];
  /** Files other agents are working on (core/domain/hotFiles.ts: their claims and active sessions): edit them only after asking. */
  hotFiles: { file: string; handoff_id: string; agent: string }[];
  /**
   * Ids a git merge moved in this clone since its agents were last told (store/movedIds.ts): `id` now names the
   * published handoff (`now_names`), and the one this clone knew by it is `moved_to`. Absent when there are none.
   */
  moved_ids?: { id: string; moved_to: string; uid: string; now_names: string | null; holder_uid: string | null }[];
  /**
   * Held handoffs this agent holds or originated whose worktree was removed by other means (git/worktreeGone.ts): the
   * line that says what and what to do. Absent when there are none.
   */
  worktree_gone?: { handoff_id: string; message: string }[];
  /** Open handoffs this agent originated whose worktree branch reached the default branch (git/mergedOffer.ts). */
  merged_offers?: { handoff_id: string; command: string; message: string }[];
  /** The session's worktree is on a branch from before AgentSync (workspace/workspaceHome.ts): what, and what to do. */
  checkout_without_agentsync?: string;
  /** Its fan-outs whose join a blocked child holds for a human (delegationBriefing.ts); absent when none. */
  held_joins?: string[];
  /** The work contexts passes to it carry, summarized (delegationBriefing.ts); `agentsync show <id>` has each whole. */
  pass_contexts?: string[];
  /** What passes to it let it do, when their policy limits it (delegationBriefing.ts). */
  pass_limits?: string[];
}

function brief(h: Handoff): BriefHandoff {
  return {
    handoff_id: h.handoff_id,
    status: h.status,
    from_agent: h.from_agent,
    to_agents: h.to_agents,
    summary: h.summary.length > BRIEFING_LIMITS.summaryChars ? `${h.summary.slice(0, BRIEFING_LIMITS.summaryChars - 1)}…` : h.summary,
    files: h.files.slice(0, 20),
    claimed_by: h.claimed_by ?? null,
    claimed_session: h.claimed_session ?? null,
    lease_expires_at: h.lease_expires_at ?? null,
    return_to: h.return_to ?? null,
  };
}

function isReturnFor(h: Handoff, agent: string): boolean {
  if (h.reason === 'return' && h.to_agents.includes(agent) && (h.status === 'queued' || h.status === 'ready_for_review')) return true;
  return h.status === 'ready_for_review' && originatorOf(h) === agent;
}

function claimableBy(h: Handoff, agent: string, config: AgentSyncConfig): boolean {
  if (h.status !== 'queued') return false;
  if (h.to_agents.includes(agent)) return true;
  if (h.to_agents.length > 0 || h.owner_mode !== 'auto') return false;
  const caps = new Set(config.agentCapabilities[agent] ?? []);
  return h.required_capabilities.length > 0 && h.required_capabilities.every((c) => caps.has(c));
}

/** The last `max` data lines of decisions.md, read from at most its last 16 KiB; none when missing or not a regular file. */
export function latestDecisions(file: string, max: number = BRIEFING_LIMITS.decisions): string[] {
  let fd: number;
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size === 0) return [];
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return [];
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, BRIEFING_LIMITS.decisionsTailBytes);
    const buf = Buffer.alloc(length);
    fs.readSync(fd, buf, 0, length, size - length);
    let lines = buf.toString('utf8').split(/\r?\n/);
    if (length < size) lines = lines.slice(1); // the first line may be cut
    const data = lines.filter((l) => l.includes(' | ') && !/^timestamp \| handoff_id/.test(l) && !/^-+( \| -+)+$/.test(l.trim()));
    return data.slice(-max);
  } finally {
    fs.closeSync(fd);
  }
}

export function sessionBriefing(
  handoffs: readonly Handoff[],
  config: AgentSyncConfig,
  agent: string,
  now: Date,
  decisionsFile: string,
  sessions: Iterable<SessionRecord> = [],
  /** The session the briefing is for: work another session of `agent` holds is listed as someone else's lease. */
  session: AgentSession | null = null,
): SessionBriefing {
  const open: Handoff[] = [];
  const claimable: Handoff[] = [];
  const returns: Handoff[] = [];
  const leases: SessionBriefing['leases'] = [];
  for (const h of handoffs) {
    if (isTerminal(h.status)) continue;
    if (isReturnFor(h, agent)) returns.push(h);
    else if (claimableBy(h, agent, config)) claimable.push(h);
    else if (h.claimed_by === agent || (h.to_agents.includes(agent) && h.status !== 'queued')) open.push(h);
    if (h.status === 'in_progress' && h.claimed_by && !isHolder(h, agent, session) && !leaseExpired(h, now)) {
      leases.push({
        handoff_id: h.handoff_id,
        claimed_by: h.claimed_by,
        claimed_session: h.claimed_session ?? null,
        lease_expires_at: h.lease_expires_at ?? null,
        files: h.files.slice(0, 20),
      });
    }
  }
  const hotFiles: SessionBriefing['hotFiles'] = [];
  for (const [file, holders] of hotFilesFor(agent, handoffs, sessions, now)) {
    for (const x of holders)
      if (hotFiles.length < BRIEFING_LIMITS.hotFiles) hotFiles.push({ file, handoff_id: x.handoff_id, agent: x.agent });
  }
  const cap = (list: Handoff[]) => list.slice(0, BRIEFING_LIMITS.handoffs).map(brief);
  const held = heldJoins(handoffs, agent);
  const limits = passLimits(handoffs, agent);
  return {
    ...(limits.length ? { pass_limits: limits } : {}),
    ...(held.length ? { held_joins: held.slice(0, BRIEFING_LIMITS.handoffs) } : {}),
    agent,
    open: cap(open),
    claimable: cap(claimable),
    returns: cap(returns),
    decisions: latestDecisions(decisionsFile),
    leases,
    hotFiles,
  };
}
