// The editor's way to the same local consent as `agentsync trust` (docs/agentsync-documentation.md, "Trusting a
// workspace's commands"): Workspace Trust alone does not approve a repository's commands. Before End Session runs
// them, a modal lists them; "Trust and Run" (a local user's click) records the approval in the same per-user file.
import * as vscode from 'vscode';
import { consentState, describeCommands, describeTargets, grantConsent, whyUntrusted } from '../../core/workspace/commandConsent';
import type { AgentSyncConfig } from '../../core/domain/configSchema';
import { PromptCancelled } from '../commands/prompts';

export const TRUST_AND_RUN = 'Trust and Run';
export const END_WITHOUT_RUNNING = 'End Without Running';

/** Asks only when commands are configured and not yet approved; Cancel (or Escape) cancels the whole End Session. */
export async function ensureCommandConsent(root: string, config: AgentSyncConfig, log: vscode.LogOutputChannel): Promise<void> {
  const state = consentState(root, config.commands);
  if (state.trusted) return;
  const runs = describeTargets(state.runs);
  const choice = await vscode.window.showWarningMessage(
    `AgentSync: run the commands of .agentsync.json? They ${whyUntrusted(state)}.`,
    {
      modal: true,
      detail:
        `${describeCommands(state.commands).join('\n')}\n\n` +
        (runs.length ? `What they run from the repository, as it is now:\n${runs.join('\n')}\n\n` : '') +
        `They come from the repository and run in ${state.workspace} without a shell. "Trust and ` +
        `Run" approves exactly these commands${runs.length ? ' and these files' : ''} for this folder on this machine (like \`agentsync trust\`); ` +
        `a change to either asks again. "End Without Running" ends the session with the checks Skipped.`,
    },
    TRUST_AND_RUN,
    END_WITHOUT_RUNNING,
  );
  if (choice === TRUST_AND_RUN) {
    grantConsent(root, config.commands);
    log.info(`commands of ${state.workspace} trusted: ${describeCommands(state.commands).join('; ')}`);
  } else if (choice !== END_WITHOUT_RUNNING) {
    throw new PromptCancelled('End Session (run the configured commands?)');
  }
}
