// The one place every command is registered (docs/architecture.md, "How to add an action"): one table, keyed by the
// command ids package.json is generated from (the action catalog's moves and PLAIN_COMMANDS, manifest/commandCatalog.ts). Each
// feature file exports its handlers; test/unit/vscode/commandRegistrar.test.ts fails when a command of package.json has no
// line here, or two, or a line has no command there.
import type * as vscode from 'vscode';
import { installInPath, INSTALL_COMMAND_IN_PATH } from './agents/agentsyncCommandInPath';
import type { TrustState } from './folders/trustState';
import { SHOW_STALE_COMMAND, type StaleBadge } from './notices/staleBadge';
import { endSession, startSession, type SessionAutomation } from './sessionCare/sessionCommands';
import type { CommandDeps } from './commands/commandDeps';
import { registerCommand, type CommandEntry } from './commands/commandRunner';
import { openRecord } from './commands/handoffCommands';
import { addHandoffNote } from './commands/handoffNoteFlow';
import { showHistory } from './commands/historyDocument';
import { listHandoffs } from './commands/listHandoffsCommand';
import { moveCommandHandlers } from './commands/moveCommands';
import { openInNewWorktree } from './commands/worktreeCommand';
import { openFileDiff } from './commands/fileReviewCommands';
import { init, openTracker, refresh, showStale } from './commands/workspaceCommands';

/** What the handlers are given: the commands' deps and the window's parts some commands act on. */
export interface RegistrarContext {
  deps: CommandDeps;
  trust: TrustState;
  badge: StaleBadge;
  tree: { refresh(): void };
  /** The zero-touch session flows, used instead of the questions while their setting is on. */
  automation?: SessionAutomation;
  extension: vscode.ExtensionContext;
}

/** Every command of package.json with its handler, one line each. */
export function commandTable(c: RegistrarContext): CommandEntry[] {
  const { deps } = c;
  const zeroTouch = () => c.automation?.enabled() === true;
  return [
    // The moves of the action catalog: claim, complete, approve, …, each under its command id.
    ...moveCommandHandlers(deps),
    ['agentsync.init', (arg) => init(deps, arg)],
    ['agentsync.startSession', (arg) => (zeroTouch() ? c.automation!.start(arg) : startSession(deps, arg))],
    ['agentsync.endSession', (arg) => (zeroTouch() ? c.automation!.end(arg) : endSession(deps, c.trust, arg))],
    ['agentsync.addHandoffNote', (arg) => addHandoffNote(deps, arg)],
    ['agentsync.listHandoffs', () => listHandoffs(deps)],
    ['agentsync.openRecord', (arg) => openRecord(deps, arg)],
    ['agentsync.showHistory', (arg) => showHistory(deps, arg)],
    ['agentsync.openInNewWorktree', (arg) => openInNewWorktree(deps, arg)],
    ['agentsync.openTracker', () => openTracker(deps)],
    ['agentsync.openFileDiff', (arg) => openFileDiff(deps, arg)],
    ['agentsync.refresh', () => Promise.resolve(refresh(deps, c.badge, c.tree))],
    [SHOW_STALE_COMMAND, () => showStale(deps, c.badge)],
    [INSTALL_COMMAND_IN_PATH, () => Promise.resolve(installInPath(c.extension, deps.log))],
  ];
}

/** Registers every command of the table, each with the one error policy (commandRunner.ts). */
export function registerCommands(c: RegistrarContext): vscode.Disposable[] {
  return commandTable(c).map(([id, handler]) => registerCommand(id, c.deps.log, handler));
}
