// The `agentsync` command for people who installed only the extension (docs/agentsync-documentation.md,
// "Installing the agentsync command"): VS Code's terminals get the bundled CLI on their PATH, and "Install
// 'agentsync' Command in PATH" writes a launcher into ~/.local/bin for the shells agents start outside the editor.
// What is written, and what is refused, is decided in core/disk/commandLauncher.ts; this file only asks and tells.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { installLauncher, launcherName, refreshLauncher, userBinFolder, type LauncherTarget } from '../../core/disk/commandLauncher';
import type { CommandId } from '../manifest/commandIds';

export const INSTALL_COMMAND_IN_PATH: CommandId = 'agentsync.installCommandInPath';

/** The CLI bundled with this extension, run by the editor's own runtime (Electron as Node, or the server's Node). */
function bundledCli(context: vscode.ExtensionContext): LauncherTarget {
  return { cli: path.join(context.extensionPath, 'bin', 'agentsync.js'), runtime: process.execPath };
}

/**
 * Puts a launcher in the extension's storage folder first on the PATH of the terminals VS Code starts, and
 * brings a launcher of ours in ~/.local/bin up to date with this extension's folder (it moves on every update).
 * Writes files, so it runs after activation.
 */
export function offerCommandToTerminals(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const dir = path.join(context.globalStorageUri.fsPath, 'bin');
  const outcome = installLauncher(dir, bundledCli(context), undefined);
  if (!outcome.ok) {
    log.warn(`the agentsync command for VS Code's terminals: ${outcome.message}`);
    return;
  }
  const env = context.environmentVariableCollection;
  env.description = "AgentSync: puts the 'agentsync' command (the CLI bundled with the extension) on PATH";
  env.prepend('PATH', dir + path.delimiter);
  const userLauncher = path.join(userBinFolder(), launcherName());
  try {
    if (refreshLauncher(userLauncher, bundledCli(context))) log.info(`${userLauncher} now runs the CLI of this extension version`);
  } catch (e) {
    log.warn(`could not update ${userLauncher}: ${(e as Error).message}`);
  }
}

/** Install 'agentsync' Command in PATH. */
export function installInPath(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const dir = userBinFolder();
  const outcome = installLauncher(dir, bundledCli(context), process.env.PATH);
  if (!outcome.ok) {
    log.warn(outcome.message);
    void vscode.window.showErrorMessage(`AgentSync: ${outcome.message}`);
    return;
  }
  const what = outcome.changed ? `'agentsync' is installed: ${outcome.file}` : `'agentsync' was already installed: ${outcome.file}`;
  log.info(what);
  if (outcome.onPath) void vscode.window.showInformationMessage(`AgentSync: ${what}. Shells started from now on find it.`);
  else void vscode.window.showWarningMessage(`AgentSync: ${what}, but ${dir} is not on PATH: ${outcome.pathHint}.`);
}
