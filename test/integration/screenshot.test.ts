// A screenshot of the workbench with the Handoffs tree open and its groups expanded (test-output/handoffs-tree.png).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, figures, screenshot, sleep, waitFor, workspaceRoot } from './helpers';

describe('screenshot', () => {
  it('shows the Handoffs tree in the AgentSync view container', async () => {
    const a = await api();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspaceRoot(), 'src/auth/session.ts')));
    await vscode.commands.executeCommand('workbench.view.extension.agentsync');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    // A narrower editor leaves the side bar room for the labels.
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    for (let i = 0; i < 4; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    await waitFor('tree view visible', () => a.treeView.visible);
    for (const g of a.tree.getChildren()) {
      if (g.kind === 'group' && g.group !== 'other') await a.treeView.reveal(g, { expand: 2, focus: false, select: false });
    }
    await sleep(800); // let the workbench paint
    const png = await screenshot('handoffs-tree.png');
    const size = fs.statSync(png).size;
    assert.ok(size > 10_000, `screenshot is ${size} bytes`);
    figures['screenshot'] = png;
  });
});
