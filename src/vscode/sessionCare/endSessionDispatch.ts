// Sends End Session's one request, with its health checks under a cancellable progress notification: shared by the
// asking flow (sessionCommands.ts) and the zero-touch one (sessionCare/zeroTouchSession.ts).
import * as vscode from 'vscode';
import type { ActionResponse } from '../../core/requests/requestDispatcher';
import type { FolderService } from '../folders/folderService';
import { PromptCancelled } from '../commands/prompts';
import type { TrustState } from '../folders/trustState';

export const RESTRICTED_HEALTH_REASON =
  'Skipped: Restricted Mode (this folder is not trusted, so AgentSync runs no commands from .agentsync.json)';

/**
 * Sends one endSession request with its health checks under a cancellable progress notification (also cancelled by
 * `external`). A cancel anywhere ends as PromptCancelled: nothing was written.
 */
export async function dispatchEndSession(
  service: FolderService,
  trust: TrustState,
  request: Record<string, unknown>,
  external?: vscode.CancellationToken,
): Promise<ActionResponse<'endSession'>> {
  const response = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'AgentSync: ending the session', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const subs = [token.onCancellationRequested(() => abort.abort()), external?.onCancellationRequested(() => abort.abort())];
      if (external?.isCancellationRequested) abort.abort();
      try {
        progress.report({
          message: trust.trusted ? 'reading git, running health checks…' : 'reading git (health checks are off in Restricted Mode)…',
        });
        return await service.dispatcher.dispatch(
          { ...request, action: 'endSession' },
          {
            surface: 'vscode',
            healthOptions: {
              signal: abort.signal,
              skipReason: trust.trusted ? undefined : RESTRICTED_HEALTH_REASON,
              onProgress: (label, i, n) => progress.report({ message: `${label} (${i + 1} of ${n})…`, increment: 100 / Math.max(n, 1) }),
            },
          },
        );
      } finally {
        for (const s of subs) s?.dispose();
      }
    },
  );
  if (!response.ok && response.reason === 'cancelled') throw new PromptCancelled('End Session (health checks)');
  return response;
}
