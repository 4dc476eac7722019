// What every editor command is given: the folders' services, the output log, and who "I" am. Its own file, so the
// command files and the file that registers them do not import each other.
import type * as vscode from 'vscode';
import type { FolderServices } from '../folders/folderServices';

/** The editor's dependencies handed to each command when it runs. */
export interface CommandDeps {
  services: FolderServices;
  log: vscode.LogOutputChannel;
  me: () => string;
}
