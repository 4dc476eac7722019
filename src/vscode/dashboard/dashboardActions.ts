// A dashboard button press, done the way the tree does it: Claim, Complete, Approve and Assign run the tree's own commands;
// Start and Skip send one request through the folder's dispatcher. The answer is the refusal text to show on the
// card (the same text the VS Code message shows), or null when it worked or was cancelled.
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import { MAX_SKIP_REASON, skipReason, type CardAction } from '../../core/domain/dashboardCards';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { reportResponse, showError } from '../commands/commandRunner';
import type { CommandDeps } from '../commands/commandDeps';
import { resolveHandoff } from '../commands/handoffTarget';
import { askText, PromptCancelled } from '../commands/prompts';
import type { CardActionRequest } from './dashboardMessages';

/** The tree's commands for the moves it has (package.json `view/item/context`). */
const TREE_COMMANDS: Partial<Record<CardAction, string>> = {
  claim: 'agentsync.claimHandoff',
  complete: 'agentsync.completeHandoff',
  approve: 'agentsync.approveHandoff',
  assign: 'agentsync.assignHandoff',
};

/** A command's answer (see commandRunner.ts): a core response, `{ cancelled }`, an internal error, or undefined. */
function refusalOf(result: unknown): string | null {
  if (!result || typeof result !== 'object') return null;
  const r = result as Partial<RequestResponse>;
  if (r.ok !== false) return null;
  return r.message ?? `refused (${r.reason ?? 'unknown reason'})`;
}

async function startFrom(deps: CommandDeps, req: CardActionRequest): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(
    deps.services,
    { handoffId: req.handoffId, folder: req.folder },
    'start a session on',
    () => true,
    deps.me(),
  );
  if (!t) return undefined;
  const me = deps.me();
  // No goal: the core takes the handoff's summary (docs/agentsync-documentation.md, "startSession").
  const response = await t.service.dispatch({ action: 'startSession', agent: me, handoffId: t.handoff.handoff_id });
  return reportResponse(response, `session started for ${displayAgent(me)} on ${t.handoff.handoff_id}.`, deps.log);
}

async function skip(deps: CommandDeps, req: CardActionRequest): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, { handoffId: req.handoffId, folder: req.folder }, 'skip', () => true, deps.me());
  if (!t) return undefined;
  const why = await askText({
    title: `Skip ${t.handoff.handoff_id}`,
    prompt: 'Why skip it? (it becomes blocked for a human to route; recorded in its history)',
    requiredMessage: 'Give a reason, so whoever routes it next knows why.',
    maxLength: MAX_SKIP_REASON,
  });
  // expected_rev: skip what was shown; a change since then is refused with stale_revision.
  const response = await t.service.dispatch({
    action: 'transitionHandoff',
    handoffId: t.handoff.handoff_id,
    agent: deps.me(),
    to: 'blocked',
    reason: skipReason(why),
    expected_rev: t.handoff.rev,
  });
  return reportResponse(response, `${t.handoff.handoff_id} is skipped (blocked for a human to route).`, deps.log);
}

/** Runs one button press; never throws. */
export async function runCardAction(deps: CommandDeps, req: CardActionRequest): Promise<string | null> {
  const command = TREE_COMMANDS[req.action];
  try {
    if (command) return refusalOf(await vscode.commands.executeCommand(command, { handoffId: req.handoffId, folder: req.folder }));
    return refusalOf(req.action === 'start' ? await startFrom(deps, req) : await skip(deps, req));
  } catch (e) {
    if (e instanceof PromptCancelled) {
      deps.log.info(`dashboard ${req.action}: ${e.message}; nothing was changed`);
      return null;
    }
    const message = (e as Error)?.message ?? String(e);
    deps.log.error(`dashboard ${req.action} of ${req.handoffId} failed: ${(e as Error)?.stack ?? message}`);
    void showError(`${message.replace(/\.?$/, '.')} Nothing was changed.`, deps.log);
    return message;
  }
}
