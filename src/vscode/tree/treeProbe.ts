// For the integration suite only (handed out through testSeam): a Handoffs tree over any folder, such as a
// 10,000-handoff store outside the window's workspace, so the suite can time first render, expansion and refresh
// on the same code the view runs.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FolderService } from '../folders/folderService';
import { HandoffTreeProvider } from './handoffTreeProvider';
import type { TreeContext } from './treeNodes';

export interface TreeProbe extends vscode.Disposable {
  service: FolderService;
  tree: HandoffTreeProvider;
}

export function treeProbe(root: string, me: string, log: vscode.LogOutputChannel): TreeProbe {
  const folder: vscode.WorkspaceFolder = { uri: vscode.Uri.file(root), name: path.basename(root), index: -1 };
  const service = new FolderService(folder, log);
  const context = (): TreeContext => ({ me, identityProblem: null, trusted: true, now: new Date() });
  const tree = new HandoffTreeProvider({ all: () => [service], onDidChange: service.onDidChange }, context);
  return {
    service,
    tree,
    dispose: () => {
      tree.dispose();
      service.dispose();
    },
  };
}
