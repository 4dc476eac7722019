// Registers commands with one error policy: a dismissed prompt is a quiet "nothing was changed", a refusal
// from the core is shown with the core's message (it says what to do), anything else is logged and shown
// with a pointer to the log. Every command returns what happened, which the integration suite checks.
import * as vscode from 'vscode';
import { PromptCancelled } from './prompts';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { refusal } from '../../core/domain/responseEnvelope';
import type { CommandId } from '../manifest/commandIds';

export interface Cancelled {
  cancelled: true;
  message: string;
}

/** A command's handler: what it does with the argument it is run with (a tree node, `{ handoffId, folder }`, …). */
export type CommandHandler = (arg?: unknown) => Promise<unknown>;
/** A command id and its handler: a line of the registrar's table (vscode/commandRegistrar.ts). */
export type CommandEntry = readonly [id: CommandId, handler: CommandHandler];

export function registerCommand(
  id: string,
  log: vscode.LogOutputChannel,
  handler: (...args: unknown[]) => Promise<unknown>,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (e) {
      if (e instanceof PromptCancelled) {
        log.info(`${id}: ${e.message}; nothing was changed`);
        vscode.window.setStatusBarMessage('AgentSync: cancelled, nothing was changed', 4000);
        return { cancelled: true, message: e.message } satisfies Cancelled;
      }
      const message = (e as Error)?.message ?? String(e);
      log.error(`${id} failed: ${(e as Error)?.stack ?? message}`);
      void showError(`${message.replace(/\.?$/, '.')} Nothing was changed; see the AgentSync output for details, and retry.`, log);
      return refusal(id, 'internal_error', message);
    }
  });
}

export async function showError(message: string, log: vscode.LogOutputChannel): Promise<void> {
  const choice = await vscode.window.showErrorMessage(`AgentSync: ${message}`, 'Show Log');
  if (choice === 'Show Log') log.show(true);
}

/** Shows a core response: a short confirmation on success, the core's own message on refusal. */
export function reportResponse(response: RequestResponse, success: string, log: vscode.LogOutputChannel): RequestResponse {
  if (response.ok) {
    log.info(`${response.action} ok (${response.request_id}): ${success}`);
    void vscode.window.showInformationMessage(`AgentSync: ${success}`);
  } else {
    log.warn(`${response.action ?? 'request'} refused (${response.reason}): ${response.message}`);
    void showError(response.message ?? `refused (${response.reason})`, log);
  }
  return response;
}
