// A plain folder (run.mjs pass "uninitialized"): nothing activates by itself; the view shows the welcome
// (the tree is empty); Initialize creates the files, the groups appear and the drop zone starts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InitReport } from '../../src/core/workspace/workspaceInit';
import { api, EXTENSION_ID, runWithAnswers, screenshot, sleep, waitFor, workspaceRoot } from './helpers';

describe('uninitialized folder', () => {
  it('the extension does not activate in a folder without .agentsync', async () => {
    await sleep(1_000); // give any start-up activation a chance to happen
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)!.isActive, false);
  });

  it('the Handoffs view shows the welcome (an empty tree) with Initialize', async () => {
    const a = await api();
    assert.deepEqual(a.tree.getChildren(), []);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('workbench.view.extension.agentsync');
    await waitFor('view visible', () => a.treeView.visible);
    await sleep(800);
    const png = await screenshot('welcome-view.png');
    assert.ok(fs.statSync(png).size > 10_000);
  });

  it('Initialize Workspace creates the files, the groups appear, the drop zone starts', async () => {
    const a = await api();
    let events = 0;
    const sub = a.tree.onDidChangeTreeData(() => events++);
    try {
      // The folder is a git repository: Initialize asks about the merge driver; dismissed, git is left alone.
      const { result, log } = await runWithAnswers<InitReport & { git: unknown }>('agentsync.init', [], { modal: null });
      assert.deepEqual(log.asked, [`modal: Register AgentSync's git merge driver in ${path.basename(workspaceRoot())}?`]);
      assert.deepEqual(result.git, { declined: true });
      assert.deepEqual(result.created.sort(), ['.agentsync.json', '.agentsync/handoffs.json', 'AgentTracker.md']);
      await waitFor('tree event', () => events > 0);
      assert.deepEqual(
        a.tree.getChildren().map((n) => a.tree.getTreeItem(n).label),
        ['Assigned to me', 'Shared with me', 'Blocked/Stale'],
      );
      await waitFor('drop zone running', () => a.dropZones.stateOf(a.services.all()[0]).running);
      assert.match(fs.readFileSync(path.join(workspaceRoot(), '.gitignore'), 'utf8'), /\.agentsync\/state\.json/);
      // The agents' instruction files get the AgentSync section too (docs/agentsync-documentation.md, Instruction files).
      assert.deepEqual(result.instructions.written, ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', 'GEMINI.md']);
      for (const f of result.instructions.written) {
        assert.match(
          fs.readFileSync(path.join(workspaceRoot(), f), 'utf8'),
          /<!-- agentsync:start -->[\s\S]*"action": "startSession"[\s\S]*<!-- agentsync:end -->/,
        );
      }
    } finally {
      sub.dispose();
    }
  });
});
