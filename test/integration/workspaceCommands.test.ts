// Open Tracker, Refresh, and Initialize on a folder that already has everything (it never overwrites).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InitReport } from '../../src/core/workspaceInit';
import { runWithAnswers, workspaceRoot } from './helpers';

describe('workspace commands', () => {
  it('Open Tracker opens AgentTracker.md: the team notes kept, the generated section present', async () => {
    await runWithAnswers('agentsync.openTracker', []);
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.uri.fsPath, path.join(workspaceRoot(), 'AgentTracker.md'));
    assert.match(doc.getText(), /Team notes live here\./);
    assert.match(doc.getText(), /## Agent Handoffs/);
  });

  it('Refresh re-reads every folder', async () => {
    const { result } = await runWithAnswers<{ changed: number }>('agentsync.refresh', []);
    assert.equal(typeof result.changed, 'number');
  });

  it('Initialize on an initialized folder creates only what is missing and overwrites nothing', async () => {
    const store = path.join(workspaceRoot(), '.agentsync/handoffs.json');
    const before = fs.readFileSync(store, 'utf8');
    const { result, log } = await runWithAnswers<InitReport>('agentsync.init', []);
    assert.deepEqual(result.created, []);
    assert.deepEqual(result.kept.sort(), ['.agentsync.json', '.agentsync/handoffs.json', 'AgentTracker.md']);
    assert.equal(fs.readFileSync(store, 'utf8'), before);
    assert.match(log.info[0], /nothing was overwritten/);
    assert.match(fs.readFileSync(path.join(workspaceRoot(), '.gitignore'), 'utf8'), /\.agentsync\/requests\//);
  });
});
