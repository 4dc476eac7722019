// "Open in New Worktree" on a handoff (docs/contract.md §14 item 5): the same core as `agentsync worktree add <path>
// --handoff <id>` (core/store/handoffWorktree.ts) makes the worktree on a new branch and binds it to the handoff; then
// the worktree opens in a new window. vscode/commandRegistrar.ts registers it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isActionError } from '../../core/domain/errors';
import { isTerminal } from '../../core/domain/handoffSchema';
import { newUid } from '../../core/domain/handoffIds';
import { refusal, type ResponseEnvelope } from '../../core/domain/responseEnvelope';
import { addHandoffWorktree, handoffForWorktree, proposedWorktreePath, type HandoffWorktree } from '../../core/store/handoffWorktree';
import type { CommandDeps } from './commandDeps';
import { showError } from './commandRunner';
import { resolveHandoff } from './handoffTarget';
import { askText } from './prompts';

/**
 * How the new worktree's window is opened (`vscode.openFolder`, forceNewWindow). An object, so that the integration
 * suite (through the test seam, vscode/testSeam.ts) can see the call instead of a second workbench opening.
 */
export const newWindow = {
  execute: (command: string, ...args: unknown[]): Thenable<unknown> => vscode.commands.executeCommand(command, ...args),
};

export type WorktreeOpened = { ok: true; made: HandoffWorktree } | ResponseEnvelope;

export async function openInNewWorktree(deps: CommandDeps, arg?: unknown): Promise<WorktreeOpened | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'open in a new worktree', (h) => !isTerminal(h.status), deps.me());
  if (!t) return undefined;
  const id = t.handoff.handoff_id;
  let made: HandoffWorktree;
  try {
    // Refused before the path is asked when the handoff may not have a worktree; a relative answer is taken beside
    // the clone's main worktree. Nothing is made before both are known.
    await handoffForWorktree(t.service.store, t.service.layout, t.handoff.uid ?? id);
    const proposed = proposedWorktreePath(t.service.layout, id);
    const answer = await askText({
      title: `Open ${id} in a new worktree`,
      prompt: `Where to make the worktree (a new branch for ${id} is checked out there)`,
      value: proposed,
      requiredMessage: 'Give a path for the new worktree.',
    });
    const target = path.resolve(path.dirname(proposed), answer.trim());
    made = await addHandoffWorktree(t.service.store, t.service.layout, target, t.handoff.uid ?? id, undefined, {
      action: 'bindWorktree',
      agent: deps.me(),
      requestId: `vscode-${newUid()}`,
      surface: 'vscode',
    });
  } catch (e) {
    if (!isActionError(e)) throw e;
    // A refusal of the core says what was wrong and that nothing was created.
    deps.log.warn(`open in a new worktree refused (${e.reason}): ${e.message}`);
    void showError(e.message, deps.log);
    return refusal('bindWorktree', e.reason, e.message);
  }
  if (made.notice) deps.log.warn(made.notice);
  deps.log.info(`${id} owns worktree ${made.worktree.name} at ${made.worktree.path}; start its agent there: ${made.start}`);
  void vscode.window.showInformationMessage(
    `AgentSync: ${id} has its own worktree ${made.worktree.name} (branch ${made.worktree.branch}); it opens in a new window.`,
  );
  await newWindow.execute('vscode.openFolder', vscode.Uri.file(made.worktree.path), { forceNewWindow: true });
  return { ok: true, made };
}
