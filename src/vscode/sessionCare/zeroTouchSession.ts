// Zero-touch Start and End Session (setting agentsync.automation.endSessionZeroTouch; docs/agentsync-documentation.md,
// "Zero-touch sessions"). Nothing is asked: the summary, the routing, the waiting handoff to claim and the pick-up
// prompt are the core's (core/requests/sessions/); this file gathers the inputs, sends the requests through the folder's
// dispatcher, and copies the prompt to the clipboard.
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import type { Handoff } from '../../core/domain/handoffSchema';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { readGitInfo } from '../../core/git/gitStatus';
import { pickUpPrompt } from '../../core/requests/sessions/pickUpPrompt';
import { waitingHandoffsFor } from '../../core/requests/sessions/waitingHandoffPick';
import { zeroTouchRoute } from '../../core/requests/sessions/zeroTouchRouting';
import { zeroTouchSummary } from '../../core/requests/sessions/zeroTouchSummary';
import { reportResponse } from '../commands/commandRunner';
import type { FolderService } from '../folders/folderService';
import type { CommandDeps } from '../commands/commandDeps';
import { dispatchEndSession } from './endSessionDispatch';
import { folderOf, type SessionAutomation, type SessionCommandArgs } from './sessionCommands';
import type { TrustState } from '../folders/trustState';
import { zeroTouchDefaults, zeroTouchEnabled } from './automationSettings';
import type { SessionStates } from './sessionStates';

/** How many waiting handoffs Start Session tries when faster agents win the claims. */
const CLAIM_ATTEMPTS = 5;

/** What a zero-touch End Session did, beyond the response (the integration suite checks it). */
export interface ZeroTouchEnd {
  response: RequestResponse;
  pickUpPrompt: string | null;
}

export class ZeroTouchSessions implements SessionAutomation {
  constructor(
    private readonly deps: CommandDeps,
    private readonly trust: TrustState,
    private readonly states: SessionStates,
  ) {}

  enabled(): boolean {
    return zeroTouchEnabled();
  }

  /**
   * The folder, without a question where it can be told: the one given, the only initialized one, the only one with
   * my open session (End), the active editor's. Only a multi-root window where none of these decides still asks.
   */
  private async folder(arg: unknown, ending: boolean): Promise<FolderService | undefined> {
    if ((arg as SessionCommandArgs | undefined)?.folder) return folderOf(this.deps, arg, '');
    const ready = this.deps.services.all().filter((s) => s.isInitialized());
    if (ready.length === 1) return ready[0];
    const me = this.deps.me();
    const open = ending ? ready.filter((s) => this.states.sessionOf(s, me)) : [];
    if (open.length === 1) return open[0];
    const active = vscode.window.activeTextEditor?.document.uri;
    const wf = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
    const byEditor = wf ? ready.find((s) => s.folder.uri.toString() === wf.uri.toString()) : undefined;
    if (byEditor) return byEditor;
    return folderOf(this.deps, undefined, ending ? 'End the session' : 'Start a session');
  }

  async start(arg?: unknown): Promise<RequestResponse | undefined> {
    const service = await this.folder(arg, false);
    if (!service) return undefined;
    const me = this.deps.me();
    let claimed: Handoff | null = null;
    for (const h of waitingHandoffsFor(service.view().handoffs, me).slice(0, CLAIM_ATTEMPTS)) {
      const r = await service.dispatch({
        action: 'claimHandoff',
        handoffId: h.handoff_id,
        agent: me,
        ...(h.rev !== undefined ? { expected_rev: h.rev } : {}),
      });
      if (r.ok) {
        claimed = h;
        break;
      }
      this.deps.log.info(`zero-touch start: ${h.handoff_id} not claimed (${r.reason}); trying the next one`);
    }
    const response = await service.dispatch({ action: 'startSession', agent: me, ...(claimed ? { handoffId: claimed.handoff_id } : {}) });
    const what = claimed
      ? `claimed ${claimed.handoff_id} (${claimed.summary.split('\n')[0].slice(0, 80)}) and started a session on it`
      : 'no handoff was waiting for you; a session started on its own';
    return reportResponse(response, `${displayAgent(me)}: ${what}.`, this.deps.log);
  }

  async end(arg?: unknown): Promise<ZeroTouchEnd | undefined> {
    const service = await this.folder(arg, true);
    if (!service) return undefined;
    const me = this.deps.me();
    const session = this.states.sessionOf(service, me) ?? null;
    const ref = session?.handoffUid ?? session?.handoffId;
    const claimed = ref ? (service.find(ref) ?? null) : null;
    const git = await readGitInfo(service.layout.root);
    if (git.problem) this.deps.log.info(`zero-touch end: ${git.problem}`);
    const summary = zeroTouchSummary({ agent: me, git, session, handoff: claimed, endedAt: new Date() });
    const route = zeroTouchRoute(zeroTouchDefaults(), me, claimed);
    const request: Record<string, unknown> = { action: 'endSession', agent: me, summary: summary.sessionSummary };
    if (summary.files.length) {
      const { why: _why, ...routing } = route;
      request.handoff = {
        summary: summary.handoffSummary,
        notes: summary.notes,
        files: summary.files,
        ...routing,
        ...(claimed ? { task_id: claimed.task_id, ...(claimed.priority ? { priority: claimed.priority } : {}) } : {}),
      };
    }
    // No consent question: commands not yet approved on this machine are recorded as Skipped (commands_untrusted).
    const response = await dispatchEndSession(service, this.trust, request, (arg as SessionCommandArgs | undefined)?.cancellation);
    const handoff = response.ok ? (response.data?.handoff ?? null) : null;
    let prompt: string | null = null;
    if (handoff && !handoff.no_handoff_reason) {
      prompt = pickUpPrompt(handoff, service.name);
      await vscode.env.clipboard.writeText(prompt);
    }
    const owners = handoff?.to_agents.map(displayAgent).join(' and ') || 'a human to assign';
    const done = handoff
      ? `session ended (zero-touch); ${handoff.handoff_id} is ${handoff.status} for ${owners} (${route.why}); pick-up prompt copied to the clipboard.`
      : `session ended (zero-touch); no files changed, so no handoff.`;
    reportResponse(response, done, this.deps.log);
    return { response, pickUpPrompt: prompt };
  }
}
