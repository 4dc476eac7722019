// The `status` action: the state.json summary (sessions, last session, health, hot files), open handoff counts from
// the store itself, and 0.3's warnings. staleAfterHours 0 and autoStaleSessionMinutes 0 mean "never stale".
import * as fs from 'node:fs';
import { displayAgent } from '../../domain/agentId';
import { staleReason } from '../../domain/handoffAttention';
import { isTerminal } from '../../domain/handoffSchema';
import { readStateFile, summarizeHandoffs } from '../../store/stateFile';
import { activeSessionsOf, lastSessionOf, sessionFields } from './sessionState';
import { readLastSession } from './sessionTrackerSections';
import type { ActionContext } from '../../store/handoffMutation';
import type { StoreTransaction } from '../../store/storeTransaction';
import type { SessionEnv } from './sessionEnv';

function readTrackerText(file: string): string | null {
  try {
    const st = fs.lstatSync(file);
    return st.isFile() && st.size < 20_000_000 ? fs.readFileSync(file, 'utf8') : null;
  } catch {
    return null;
  }
}

export function sessionStatus(tx: StoreTransaction, ctx: ActionContext, env: SessionEnv): object {
  const state = readStateFile(env.layout.stateFile);
  const sessions = activeSessionsOf(state);
  const now = tx.now();
  const config = tx.config;
  const warnings: string[] = [];

  const trackerText = readTrackerText(env.layout.trackerFile);
  const tracker = trackerText === null ? null : readLastSession(trackerText);
  const lastDate = Date.parse(lastSessionOf(state)?.date ?? tracker?.date ?? '');
  if (config.staleAfterHours > 0 && Number.isFinite(lastDate) && now.getTime() - lastDate > config.staleAfterHours * 3_600_000) {
    warnings.push(
      `Tracker is stale (${Math.floor((now.getTime() - lastDate) / 3_600_000)}h old; staleAfterHours is ${config.staleAfterHours}).`,
    );
  }
  for (const s of sessions.values()) {
    const started = Date.parse(s.startedAt);
    const minutes = (now.getTime() - started) / 60_000;
    if (config.autoStaleSessionMinutes > 0 && Number.isFinite(started) && minutes > config.autoStaleSessionMinutes) {
      warnings.push(
        `${displayAgent(s.agent)}'s session has been active for ${Math.floor(minutes)} min (autoStaleSessionMinutes is ` +
          `${config.autoStaleSessionMinutes}); end it, or start a new one.`,
      );
    }
  }
  const stale = tx.handoffs.filter((h) => staleReason(h, config, now) !== null).map((h) => h.handoff_id);
  if (stale.length)
    warnings.push(`${stale.length} open handoff(s) are stale: ${stale.slice(0, 10).join(', ')}${stale.length > 10 ? ', …' : ''}.`);

  const summary = summarizeHandoffs(tx.handoffs);
  const mine = ctx.agent ? tx.handoffs.filter((h) => !isTerminal(h.status) && h.to_agents.includes(ctx.agent)) : null;
  return {
    ...sessionFields(sessions),
    lastSession: lastSessionOf(state),
    health: state.health ?? null,
    hotFiles: Array.isArray(state.hotFiles) ? state.hotFiles : [],
    openHandoffCount: summary.openHandoffCount,
    handoffCounts: summary.handoffCounts,
    activeHandoffIds: summary.activeHandoffIds,
    staleHandoffIds: stale,
    ...(mine ? { agent: ctx.agent, assignedOpenCount: mine.length, assignedOpenIds: mine.map((h) => h.handoff_id) } : {}),
    tracker,
    warnings,
  };
}
