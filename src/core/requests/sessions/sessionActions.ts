// startSession / endSession / status / health (AgentSync 0.3's session actions, docs/contract.md §8, §10). Git and health checks
// run in `prepare`, before the store lock; `run` applies the result under the lock: the handoff (through createHandoff),
// then AgentTracker.md's session sections and state.json, so every writer of those files holds the same lock.
// Those two files are written only after the store is (tx.afterCommit): a batch that fails or loses its lock
// leaves them as they were, and they never describe a handoff the store does not have.
import { readContext } from '../actions/passContext';
import { passContexts } from './delegationBriefing';
import { createHandoff } from '../actions/createHandoff';
import type { TagOutcome } from '../actions/noteTags';
import { requireHandoff } from '../actions/findHandoff';
import { editTrackerFile, writeStateSummary } from '../../store/derivedFiles';
import { ActionError } from '../../domain/errors';
import { auditEntry, type ActionContext } from '../../store/handoffMutation';
import { newUid } from '../../domain/handoffIds';
import type { Handoff } from '../../domain/handoffSchema';
import { readStateFile } from '../../store/stateFile';
import { readMovedIds, toldPatch, untoldMoves } from '../../store/movedIds';
import { readGitInfo, type GitInfo } from '../../git/gitStatus';
import { sessionBriefing } from './sessionBriefing';
import { goneWorktrees, worktreeGoneText } from '../../git/worktreeGone';
import { mergedOffers } from '../../git/mergedOffer';
import { originatorOf } from '../../domain/lifecycle';
import { checkoutWithoutAgentSync } from '../../workspace/workspaceHome';
import { HEALTH_CHECKS, type HealthReport } from './healthChecks';
import { runHealthAction, runSessionEndChecks } from './consentedChecks';
import {
  activeSessionsOf,
  lastSessionOf,
  sessionFields,
  withoutWorktreeSession,
  withWorktreeSession,
  worktreeSessionsOf,
  type LastSessionRecord,
  type SessionRecord,
} from './sessionState';
import {
  appendSuggestedNext,
  inProgressLine,
  setCurrentHealth,
  setHotFiles,
  setLastSession,
  updateInProgress,
} from './sessionTrackerSections';
import type { ParamsOf } from '../requestParams';
import { enforcementProblem, recordableFiles } from './endSessionRules';
import type { SessionEnv } from './sessionEnv';
import type { StoreTransaction } from '../../store/storeTransaction';

export interface EndSessionPrepared extends SessionEnv {
  git: GitInfo;
  health: HealthReport;
  /** Why the configured commands did not run: the local user has not approved them (`agentsync trust`). */
  untrusted: ActionError | null;
}

export async function prepareEndSession(env: SessionEnv, p: ParamsOf<'endSession'>): Promise<EndSessionPrepared> {
  // git first: a build may write files, and hot files are what the agent changed.
  const git = await readGitInfo(env.layout.root);
  // An end that will be refused runs no command (a refused request changes nothing, and deploy is a command).
  const refusal = enforcementProblem(env.config, git.hotFiles, p);
  const { health, untrusted } = await runSessionEndChecks(env, refusal?.reason ?? null);
  return { ...env, git, health, untrusted };
}

export async function prepareHealth(env: SessionEnv): Promise<HealthReport> {
  return runHealthAction(env);
}

function healthStatuses(health: HealthReport): Record<string, string> {
  return Object.fromEntries(HEALTH_CHECKS.map(({ label }) => [label, health[label].status]));
}

export function startSession(tx: StoreTransaction, ctx: ActionContext, p: ParamsOf<'startSession'>, env: SessionEnv): object {
  const sessions = activeSessionsOf(readStateFile(env.layout.stateFile));
  const existing = sessions.get(ctx.agent);
  if (existing && existing.request_id === ctx.requestId)
    return { agent: ctx.agent, goal: existing.goal, session: existing, replayed: true };
  const ref = p.handoffId ?? p.handoff_id;
  let from: Handoff | null = null;
  if (ref) {
    from = requireHandoff(tx, ref);
    if (from.status !== 'in_progress' || from.claimed_by !== ctx.agent) {
      throw new ActionError(
        'not_claimed',
        `${from.handoff_id} is ${from.status}${from.claimed_by ? ` and held by ${from.claimed_by}` : ''}; a session starts from a handoff that ` +
          `${ctx.agent} has claimed. Claim it first (claimHandoff), then start the session.`,
        {
          handoff_id: from.handoff_id,
          status: from.status,
        },
      );
    }
  }
  const now = tx.now();
  const startedAt = now.toISOString();
  const goal = p.goal?.trim() || from?.summary || 'Session started';
  const session: SessionRecord = {
    id: newUid(now.getTime()),
    agent: ctx.agent,
    goal,
    startedAt,
    handoffId: from?.handoff_id ?? null,
    handoffUid: from?.uid ?? null,
    request_id: ctx.requestId,
    ...(ctx.session?.id ? { agentSession: { id: ctx.session.id, worktree: ctx.session.worktree } } : {}),
  };
  tx.afterCommit.push({
    what: 'AgentTracker.md',
    run: () => editTrackerFile(env.layout, (text) => updateInProgress(text, ctx.agent, inProgressLine(ctx.agent, startedAt, goal))),
  });
  tx.afterCommit.push({
    what: '.agentsync/state.json',
    // Re-read at write time, so sessions started earlier in the same batch are kept.
    // The briefing tells this clone's agents the ids a merge moved: from now on those ids name the published records.
    run: () => {
      const state = readStateFile(env.layout.stateFile);
      const now = activeSessionsOf(state).set(ctx.agent, session);
      const here = session.agentSession ? { agent: ctx.agent, ...session.agentSession, startedAt } : null;
      const agentSessions = here ? withWorktreeSession(worktreeSessionsOf(state), here) : worktreeSessionsOf(state);
      writeStateSummary(
        env.layout,
        tx.handoffs,
        { ...sessionFields(now), agentSessions, lastUpdated: startedAt, ...toldPatch(state, ctx.agent) },
        {},
        state,
      );
    },
  });
  tx.audit.push(auditEntry(ctx, from, null, null, existing ? 'session restarted' : 'session started', startedAt));
  const briefing = sessionBriefing(tx.handoffs, tx.config, ctx.agent, now, env.layout.decisionsFile, sessions.values(), ctx.session);
  const contexts = passContexts(tx.handoffs, ctx.agent, (uid) => readContext(env.layout, uid));
  if (contexts.length) briefing.pass_contexts = contexts;
  const moved = untoldMoves(readMovedIds(env.layout), (r) => tx.findAnywhere(r), ctx.agent);
  if (moved.length) briefing.moved_ids = moved;
  const gone = env.layout.placement ? goneWorktrees(env.layout.placement.location, tx.handoffs) : new Set<string>();
  const mine = tx.handoffs.filter((h) => gone.has(h.handoff_id) && (h.claimed_by === ctx.agent || originatorOf(h) === ctx.agent));
  if (mine.length) briefing.worktree_gone = mine.map((h) => ({ handoff_id: h.handoff_id, message: worktreeGoneText(h) }));
  const offers = briefingOffers(env, tx.handoffs, ctx.agent);
  if (offers.length) briefing.merged_offers = offers;
  const oldCheckout = checkoutWithoutAgentSync(env.layout.placement);
  if (oldCheckout) briefing.checkout_without_agentsync = oldCheckout;
  return { agent: ctx.agent, goal, session, briefing, ...(existing ? { replaced: existing } : {}) };
}

/** The `merged` offers for the handoffs `agent` originated (docs/contract.md §14 item 5); a git that fails offers none. */
function briefingOffers(
  env: SessionEnv,
  handoffs: readonly Handoff[],
  agent: string,
): { handoff_id: string; command: string; message: string }[] {
  const placement = env.layout.placement;
  if (!placement) return [];
  try {
    const mine = handoffs.filter((h) => originatorOf(h) === agent);
    return mergedOffers(placement.location, mine, originatorOf).map(({ handoff_id, command, message }) => ({
      handoff_id,
      command,
      message,
    }));
  } catch {
    return [];
  }
}

export function endSession(tx: StoreTransaction, ctx: ActionContext, p: ParamsOf<'endSession'>, prep: EndSessionPrepared) {
  const state = readStateFile(prep.layout.stateFile);
  const previous = lastSessionOf(state);
  if (previous && previous.request_id === ctx.requestId) {
    const handoff = previous.handoffId ? (tx.find(previous.handoffId) ?? null) : null;
    return { agent: ctx.agent, session: null, lastSession: previous, hotFiles: state.hotFiles ?? [], handoff, replayed: true };
  }
  const sessions = activeSessionsOf(state);
  const session = sessions.get(ctx.agent) ?? null;
  const hot = prep.git.hotFiles;
  const skip = p.no_handoff_reason ?? (p.handoff?.no_handoff_reason?.trim() || null);
  const given = p.handoff ?? null;
  const refusal = enforcementProblem(tx.config, hot, p);
  if (refusal) throw refusal;
  const branch = prep.git.branch;
  const commit = prep.git.commit;
  let handoff: Handoff | null = null;
  let tag: TagOutcome | undefined;
  if (given) {
    const input = {
      ...given,
      from_agent: given.from_agent ?? ctx.agent,
      files: given.files ?? recordableFiles(hot),
      branch: given.branch ?? branch,
      commit: given.commit ?? commit,
    };
    const created = createHandoff(tx, ctx, { action: 'createHandoff', handoff: input });
    handoff = created.handoff;
    tag = created.tag;
  } else if (skip && hot.length > 0) {
    // The skip is recorded in a record's no_handoff_reason (docs/contract.md §10, End Session), naming the changed files.
    const input = {
      from_agent: ctx.agent,
      owner_mode: 'single' as const,
      to_agents: [],
      summary: p.summary?.trim() || 'Session ended without a handoff',
      files: recordableFiles(hot),
      no_handoff_reason: skip,
      branch,
      commit,
    };
    handoff = createHandoff(tx, ctx, { action: 'createHandoff', handoff: input }).handoff;
  }

  const endedAt = tx.now().toISOString();
  const lastSession: LastSessionRecord = {
    id: session?.id ?? null,
    agent: ctx.agent,
    date: endedAt,
    summary: p.summary?.trim() || '-',
    branch: branch ?? '-',
    commit: commit ?? '-',
    startedAt: session?.startedAt ?? null,
    endedAt,
    nextWork: p.nextWork?.trim() || null,
    handoffId: handoff?.handoff_id ?? null,
    no_handoff_reason: skip,
    request_id: ctx.requestId,
  };
  tx.afterCommit.push({
    what: 'AgentTracker.md',
    run: () =>
      editTrackerFile(prep.layout, (text) => {
        let t = setLastSession(text, { agent: ctx.agent, date: endedAt, summary: p.summary ?? null, branch, commit });
        t = setCurrentHealth(t, prep.health);
        t = setHotFiles(t, hot);
        t = updateInProgress(t, ctx.agent, null);
        return lastSession.nextWork ? appendSuggestedNext(t, lastSession.nextWork) : t;
      }),
  });
  const health = Object.fromEntries(
    HEALTH_CHECKS.map(({ label }) => [label, { status: prep.health[label].status, output: prep.health[label].output }]),
  );
  tx.afterCommit.push({
    what: '.agentsync/state.json',
    run: () => {
      const state = readStateFile(prep.layout.stateFile);
      const now = activeSessionsOf(state);
      now.delete(ctx.agent);
      const agentSessions = withoutWorktreeSession(worktreeSessionsOf(state), ctx.agent, ctx.session ?? null);
      writeStateSummary(prep.layout, tx.handoffs, {
        ...sessionFields(now),
        agentSessions,
        lastSession,
        health,
        hotFiles: hot,
        lastUpdated: endedAt,
      });
    },
  });
  if (!handoff) tx.audit.push(auditEntry(ctx, null, null, null, session ? 'session ended' : 'session ended (none was active)', endedAt));
  return {
    agent: ctx.agent,
    session,
    lastSession,
    health: healthStatuses(prep.health),
    healthOutputs: Object.fromEntries(HEALTH_CHECKS.map(({ label }) => [label, prep.health[label].output])),
    hotFiles: hot,
    handoff,
    ...(tag ? { tag } : {}),
    branch,
    commit,
    ...(prep.git.problem ? { gitProblem: prep.git.problem } : {}),
    ...(prep.untrusted ? { commandsUntrusted: { reason: prep.untrusted.reason, message: prep.untrusted.message } } : {}),
  };
}

export function healthResult(health: HealthReport): object {
  return {
    results: healthStatuses(health),
    outputs: Object.fromEntries(HEALTH_CHECKS.map(({ label }) => [label, health[label].output])),
    details: health,
  };
}
