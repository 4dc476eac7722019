// The explorer badge on hot files (docs/agentsync-documentation.md, "Hot files of other agents"): "⇄" in the theme
// color agentsync.hotFileForeground, with a tooltip naming the agent and the handoff. Redrawn only for the URIs
// the index reports changed.
import * as vscode from 'vscode';
import type { HotFileIndex } from './hotFileIndex';
import { holdersText } from './hotFileText';

export const HOT_FILE_BADGE = '⇄';
export const HOT_FILE_COLOR = 'agentsync.hotFileForeground';

export class HotFileDecorations implements vscode.FileDecorationProvider {
  readonly onDidChangeFileDecorations: vscode.Event<vscode.Uri[]>;

  constructor(private readonly index: HotFileIndex) {
    this.onDidChangeFileDecorations = index.onDidChange;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const hit = this.index.lookup(uri);
    if (!hit) return undefined;
    const d = new vscode.FileDecoration(HOT_FILE_BADGE, `AgentSync: ${holdersText(hit.holders)}`, new vscode.ThemeColor(HOT_FILE_COLOR));
    d.propagate = false; // the folders above are not "held"
    return d;
  }
}
