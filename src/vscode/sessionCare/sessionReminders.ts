// Reminders that this agent's session is still open (setting agentsync.sessionReminderHours, 0 = off;
// docs/agentsync-documentation.md, "Session care"): "session open for N h" with End / Snooze. One timer, set to the
// next reminder due (core/requests/sessions/sessionReminder.ts), re-set when sessions, folders, the agent id or the setting
// change; it is a reminder, not a refresh, and nothing is read between reminders.
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import { durationText } from '../../core/requests/sessions/durationText';
import { nextReminderAt } from '../../core/requests/sessions/sessionReminder';
import type { SessionRecord } from '../../core/requests/sessions/sessionState';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import type { SessionStates } from './sessionStates';
import type { CommandId } from '../manifest/commandIds';

export const END = 'End';
export const SNOOZE = 'Snooze';
const MAX_DELAY_MS = 2_147_000_000;

interface Due {
  service: FolderService;
  session: SessionRecord;
  at: number;
}

export class SessionReminders implements vscode.Disposable {
  /** When this window last asked about a session (by folder and session id): a reminder, a snooze, the start-up question. */
  private readonly lastPrompt = new Map<string, number>();
  /** Reminders on screen, not answered yet: not shown twice. */
  private readonly open = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly services: FolderServices,
    private readonly states: SessionStates,
    private readonly me: () => string,
    private readonly hours: () => number,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions = [services.onDidChange(() => this.schedule()), states.onDidChange(() => this.schedule())];
  }

  start(): void {
    this.started = true;
    this.schedule();
  }

  /** Someone was just asked about this session: the next reminder is `hours` from now. */
  prompted(service: FolderService, sessionId: string, at = Date.now()): void {
    this.lastPrompt.set(`${service.layout.root}\n${sessionId}`, at);
    this.schedule();
  }

  /** Re-sets the timer to the next reminder due; called on every change that can move it. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.started) return;
    const next = this.dueList().reduce<number | null>((min, d) => (min === null || d.at < min ? d.at : min), null);
    if (next === null) return;
    this.timer = setTimeout(() => this.remind(), Math.max(0, Math.min(MAX_DELAY_MS, next - Date.now())));
  }

  private key(d: { service: FolderService; session: SessionRecord }): string {
    return `${d.service.layout.root}\n${d.session.id}`;
  }

  private dueList(): Due[] {
    const out: Due[] = [];
    const hours = this.hours();
    const me = this.me();
    for (const service of this.services.all()) {
      if (!service.isInitialized()) continue;
      const session = this.states.sessionOf(service, me);
      if (!session) continue;
      const key = this.key({ service, session });
      if (this.open.has(key)) continue;
      const at = nextReminderAt(session.startedAt, hours, this.lastPrompt.get(key) ?? null);
      if (at !== null) out.push({ service, session, at });
    }
    return out;
  }

  private remind(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const d of this.dueList()) if (d.at <= now) void this.ask(d, now);
    this.schedule();
  }

  private async ask(d: Due, now: number): Promise<void> {
    const key = this.key(d);
    this.open.add(key);
    const age = durationText(now - Date.parse(d.session.startedAt));
    const goal = d.session.goal ? ` (${d.session.goal.split('\n')[0].slice(0, 80)})` : '';
    const message =
      `AgentSync: ${displayAgent(d.session.agent)}'s session open for ${age} in ${d.service.name}${goal}. ` +
      `End it, or snooze this reminder for ${this.hours()} h?`;
    this.log.info(`session reminder: ${message}`);
    try {
      const choice = await vscode.window.showInformationMessage(message, END, SNOOZE);
      this.open.delete(key);
      // Snooze, or a dismissed message: ask again in `hours`.
      this.prompted(d.service, d.session.id);
      if (choice === END)
        await vscode.commands.executeCommand('agentsync.endSession' satisfies CommandId, { folder: d.service.layout.root });
    } catch (e) {
      this.open.delete(key);
      this.log.error(`session reminder failed: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
