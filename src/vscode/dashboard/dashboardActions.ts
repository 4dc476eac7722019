// A dashboard button press, done the way the tree and the palette do it: it runs the editor command of the catalog's
// move (requests/catalog/dashboardMoves.ts) for the card's handoff. The answer is the refusal text to show on the card
// (the same text the VS Code message shows), or null when it worked or was cancelled.
import * as vscode from 'vscode';
import { dashboardMoveNamed } from '../../core/requests/catalog/dashboardMoves';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { showError } from '../commands/commandRunner';
import type { CommandDeps } from '../commands/commandDeps';
import type { CardActionRequest } from './dashboardMessages';

/** A command's answer (see commandRunner.ts): a core response, `{ cancelled }`, an internal error, or undefined. */
function refusalOf(result: unknown): string | null {
  if (!result || typeof result !== 'object') return null;
  const r = result as Partial<RequestResponse>;
  if (r.ok !== false) return null;
  return r.message ?? `refused (${r.reason ?? 'unknown reason'})`;
}

/** Runs one button press; never throws. */
export async function runCardAction(deps: CommandDeps, req: CardActionRequest): Promise<string | null> {
  try {
    const move = dashboardMoveNamed(req.action);
    if (!move) throw new Error(`the dashboard has no button "${req.action}"`);
    return refusalOf(await vscode.commands.executeCommand(move.command.id, { handoffId: req.handoffId, folder: req.folder }));
  } catch (e) {
    const message = (e as Error)?.message ?? String(e);
    deps.log.error(`dashboard ${req.action} of ${req.handoffId} failed: ${(e as Error)?.stack ?? message}`);
    void showError(`${message.replace(/\.?$/, '.')} Nothing was changed.`, deps.log);
    return message;
  }
}
