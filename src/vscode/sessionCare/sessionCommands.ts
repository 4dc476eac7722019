// Start Session and End Session. End Session asks everything first (summary, next work, hot files from git,
// owner mode or a skip reason, targets or capabilities, note), then sends ONE endSession request whose health
// checks run under a cancellable progress notification. Cancelling anywhere leaves nothing written.
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import { LIMITS } from '../../core/domain/handoffSchema';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { readGitInfo } from '../../core/git/gitStatus';
import { reportResponse } from '../commands/commandRunner';
import { ensureCommandConsent } from './commandConsentPrompt';
import { dispatchEndSession } from './endSessionDispatch';
import type { FolderService } from '../folders/folderService';
import type { CommandDeps } from '../commands/commandDeps';
import { handoffChoice } from '../commands/handoffTarget';
import { askOwnership, type Ownership } from '../commands/handoffNoteFlow';
import { askText, pickMany, pickOne, type Choice } from '../commands/prompts';
import type { TrustState } from '../folders/trustState';

/** Optional argument for programmatic callers (and the integration suite). */
export interface SessionCommandArgs {
  folder?: string;
  /** Cancels the health checks, like the Cancel button of the progress notification. */
  cancellation?: vscode.CancellationToken;
}

export async function folderOf(deps: CommandDeps, arg: unknown, what: string): Promise<FolderService | undefined> {
  const folder = (arg as SessionCommandArgs | undefined)?.folder;
  if (folder) {
    const s = deps.services.get(folder);
    if (!s)
      throw new Error(
        `${folder} is not a folder of this workspace; pass one of: ${deps.services
          .all()
          .map((x) => x.layout.root)
          .join(', ')}`,
      );
    return s;
  }
  return deps.services.pick(`${what} in which folder?`);
}

export async function startSession(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const service = await folderOf(deps, arg, 'Start a session');
  if (!service) return undefined;
  const me = deps.me();
  const title = 'AgentSync: Start Session';
  const held = service.view().handoffs.filter((h) => h.status === 'in_progress' && h.claimed_by === me);
  let handoffId: string | undefined;
  if (held.length) {
    const choices: Choice<string | undefined>[] = [
      { label: '$(circle-slash) No handoff', description: 'a session of its own', value: undefined },
      ...held.map((h) => handoffChoice<string | undefined>(h, h.handoff_id)),
    ];
    handoffId = await pickOne(choices, { title, placeHolder: 'Start from a handoff you hold?' });
  }
  const goal = await askText({
    title,
    prompt: 'Goal of this session',
    placeHolder: handoffId ? 'empty: the handoff summary' : 'e.g. Fix the token refresh race',
    requiredMessage: handoffId ? undefined : 'Say what the session is for.',
    maxLength: LIMITS.summary,
  });
  const response = await service.dispatch({
    action: 'startSession',
    agent: me,
    ...(goal ? { goal } : {}),
    ...(handoffId ? { handoffId } : {}),
  });
  return reportResponse(response, `session started for ${displayAgent(me)}${handoffId ? ` on ${handoffId}` : ''}.`, deps.log);
}

type HandoffChoice = Ownership | { kind: 'none' };

export async function endSession(deps: CommandDeps, trust: TrustState, arg?: unknown): Promise<RequestResponse | undefined> {
  const service = await folderOf(deps, arg, 'End the session');
  if (!service) return undefined;
  const external = (arg as SessionCommandArgs | undefined)?.cancellation;
  const me = deps.me();
  const title = 'AgentSync: End Session';
  const config = service.view().config;

  const git = await readGitInfo(service.layout.root);
  if (git.problem) deps.log.info(`end session: ${git.problem}`);
  const hot = git.hotFiles;
  const required = config.requireHandoffOnEndSession && hot.length > 0;

  const summary = await askText({
    title,
    prompt: 'Session summary: what was done?',
    requiredMessage: 'Say what was done in this session.',
    maxLength: LIMITS.summary,
  });
  const nextWork = await askText({
    title,
    prompt: 'Next work: what should happen next? (optional; becomes the handoff summary)',
    maxLength: LIMITS.summary,
  });
  const files = hot.length
    ? await pickMany(
        hot.map((p) => ({ label: p, picked: true, value: p })),
        { title, placeHolder: `${hot.length} changed file(s) in git: which belong in the handoff?` },
      )
    : [];

  let choice: HandoffChoice;
  if (required) {
    choice = await askOwnership(service, me, `${title}: a handoff is required (${hot.length} changed file(s))`, true);
  } else {
    const leave = await pickOne<boolean>(
      [
        { label: '$(note) Leave a handoff', description: 'for the next agent or person', value: true },
        { label: '$(circle-slash) No handoff', value: false },
      ],
      { title, placeHolder: hot.length ? `${hot.length} file(s) changed: leave a handoff?` : 'Leave a handoff?' },
    );
    choice = leave ? await askOwnership(service, me, title, true) : { kind: 'none' };
  }
  // A handoff is what the user described: with Next work left empty, its summary is asked for again (never the session
  // summary in its place); Escape there writes nothing, and "No handoff" or `skip` leave none.
  const handoffSummary =
    choice.kind === 'assign'
      ? nextWork ||
        (await askText({
          title,
          prompt: 'Next work was left empty: what should the receiver do? (the handoff summary)',
          requiredMessage: 'Say what the receiver should do, or press Escape (nothing is written) and choose No handoff.',
          maxLength: LIMITS.summary,
        }))
      : '';
  const notes =
    choice.kind === 'assign'
      ? await askText({
          title,
          prompt: 'Note for the receiver (what to check, what is left)',
          requiredMessage: required ? 'requireHandoffOnEndSession asks for a note for the next agent.' : undefined,
          maxLength: LIMITS.notes,
        })
      : '';

  const next = nextWork || handoffSummary;
  const request: Record<string, unknown> = { action: 'endSession', agent: me, summary, ...(next ? { nextWork: next } : {}) };
  if (choice.kind === 'assign') {
    request.handoff = {
      summary: handoffSummary,
      notes,
      owner_mode: choice.owner_mode,
      ...(choice.to_agents ? { to_agents: choice.to_agents } : {}),
      ...(choice.required_capabilities ? { required_capabilities: choice.required_capabilities } : {}),
      files,
    };
  } else if (choice.kind === 'skip') {
    request.no_handoff_reason = choice.no_handoff_reason;
  }

  // Last question, before anything is written: Workspace Trust is needed AND the local approval of the commands.
  if (trust.trusted) await ensureCommandConsent(service.layout.root, service.view().config, deps.log);

  const response = await dispatchEndSession(service, trust, request, external);
  const health = response.data?.health;
  const h = response.data?.handoff;
  const parts = [
    'session ended',
    health
      ? `health: ${Object.entries(health)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`
      : '',
    h?.handoff_id ? (h.no_handoff_reason ? `skip recorded in ${h.handoff_id}` : `${h.handoff_id} created`) : '',
  ].filter(Boolean);
  return reportResponse(response, `${parts.join('; ')}.`, deps.log);
}

/** The zero-touch flows (sessionCare/zeroTouchSession.ts), used instead of the questions while its setting is on. */
export interface SessionAutomation {
  enabled(): boolean;
  start(arg?: unknown): Promise<unknown>;
  end(arg?: unknown): Promise<unknown>;
}
