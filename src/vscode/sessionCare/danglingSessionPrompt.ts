// At start-up, a session this window's agent left open (state.json, e.g. the editor closed mid-session) is offered
// Continue / End (docs/agentsync-documentation.md, "Session care"). End runs End Session (zero-touch when that is on).
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import { durationText } from '../../core/requests/sessions/durationText';
import type { FolderServices } from '../folders/folderServices';
import type { SessionReminders } from './sessionReminders';
import type { SessionStates } from './sessionStates';
import type { CommandId } from '../manifest/commandIds';

export const CONTINUE = 'Continue';
export const END_SESSION = 'End';

export interface DanglingSessionPrompt {
  folder: string;
  sessionId: string;
  message: string;
  /** Continue, End, or undefined (dismissed: the session stays open). */
  choice: Promise<string | undefined>;
}

/** Asks about each folder's open session of `me`, without waiting for the answers; returns what was asked. */
export function offerDanglingSessions(
  services: FolderServices,
  states: SessionStates,
  reminders: SessionReminders,
  me: string,
  log: vscode.LogOutputChannel,
): DanglingSessionPrompt[] {
  const asked: DanglingSessionPrompt[] = [];
  for (const service of services.all()) {
    if (!service.isInitialized()) continue;
    const session = states.sessionOf(service, me);
    if (!session) continue;
    const started = Date.parse(session.startedAt);
    const age = Number.isFinite(started) ? ` ${durationText(Date.now() - started)} ago` : '';
    const goal = session.goal ? `: ${session.goal.split('\n')[0].slice(0, 80)}` : '';
    const message = `AgentSync: ${displayAgent(me)}'s session in ${service.name}, started${age}, is still open${goal}. Continue it, or end it?`;
    log.info(`open session found at start-up: ${message}`);
    reminders.prompted(service, session.id);
    const choice = Promise.resolve(vscode.window.showInformationMessage(message, CONTINUE, END_SESSION)).then(async (picked) => {
      reminders.prompted(service, session.id);
      log.info(`open session ${session.id}: ${picked ?? 'dismissed'}`);
      if (picked === END_SESSION)
        await vscode.commands.executeCommand('agentsync.endSession' satisfies CommandId, { folder: service.layout.root });
      return picked;
    });
    choice.catch((e: unknown) => log.error(`start-up session prompt failed: ${(e as Error).message}`));
    asked.push({ folder: service.layout.root, sessionId: session.id, message, choice });
  }
  return asked;
}
