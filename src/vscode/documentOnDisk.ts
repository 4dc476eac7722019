// A text document VS Code opened earlier may not yet hold what was written to its file a moment ago (the file
// watcher's event is still on its way). Open Handoff Record computes a position in the text, so it waits for that.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

function diskText(doc: vscode.TextDocument): string | null {
  try {
    return fs.readFileSync(doc.uri.fsPath, 'utf8');
  } catch {
    return null;
  }
}

/** Resolves once `doc` shows its file's current bytes (at most `timeoutMs`; an edited document is left as it is). */
export function caughtUpWithDisk(doc: vscode.TextDocument, timeoutMs = 2_000): Promise<void> {
  const current = () => doc.isDirty || doc.uri.scheme !== 'file' || doc.getText() === diskText(doc);
  if (current()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      sub.dispose();
      clearTimeout(timer);
      resolve();
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => e.document === doc && current() && done());
    const timer = setTimeout(done, timeoutMs);
  });
}
