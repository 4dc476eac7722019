import * as vscode from 'vscode';

/**
 * Checks the walkthrough's Initialize step (package.json contributes.walkthroughs) once a folder is initialized.
 *
 * Its `onContext:agentsync.initialized` completion event alone is not enough: VS Code registers walkthroughs only
 * when its walkthrough service first starts (opening the walkthrough, or the Welcome page at start-up), and a step
 * whose context expression is already true at that moment is never checked. `welcome.markStepComplete` records the
 * step as done in the user's walkthrough progress whether or not the service has registered it yet.
 */
export async function markInitializeStepDone(extensionId: string, log: vscode.LogOutputChannel): Promise<void> {
  const step = `${extensionId}#gettingStarted#init`;
  try {
    await vscode.commands.executeCommand('welcome.markStepComplete', step);
  } catch (e) {
    // The service throws "unknown step" when it has not registered the walkthrough yet, after recording it as done.
    log.debug(`walkthrough step ${step}: ${(e as Error).message}`);
  }
}
