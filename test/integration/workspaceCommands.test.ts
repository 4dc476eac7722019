// Open Tracker, Refresh, and Initialize on a folder that already has everything (it never overwrites); `init --git`
// from the editor: registering the git merge driver is asked first (modal), and no means no change to git's config.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InitReport } from '../../src/core/workspace/workspaceInit';
import { runWithAnswers, workspaceRoot } from './helpers';

const mergeDriver = () => {
  try {
    return execFileSync('git', ['-C', workspaceRoot(), 'config', '--get', 'merge.agentsync.driver'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const attributes = () => path.join(workspaceRoot(), '.gitattributes');

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
    const { result, log } = await runWithAnswers<InitReport>('agentsync.init', [], { modal: null });
    assert.deepEqual(result.created, []);
    assert.deepEqual(result.kept.sort(), ['.agentsync.json', '.agentsync/handoffs.json', 'AgentTracker.md']);
    assert.equal(fs.readFileSync(store, 'utf8'), before);
    assert.match(log.info[0], /nothing was overwritten/);
    assert.match(fs.readFileSync(path.join(workspaceRoot(), '.gitignore'), 'utf8'), /\.agentsync\/requests\//);
  });
});

describe('Initialize Workspace and the merge driver', () => {
  it('asks before registering the merge driver; declining leaves git config and .gitattributes untouched', async () => {
    const { result, log } = await runWithAnswers<{ created: string[]; git: unknown }>('agentsync.init', [workspaceRoot()], { modal: null });
    assert.deepEqual(log.asked, [`modal: Register AgentSync's git merge driver in ${path.basename(workspaceRoot())}?`]);
    assert.deepEqual(result.git, { declined: true });
    assert.equal(mergeDriver(), null);
    assert.equal(fs.existsSync(attributes()), false);
  });

  it('with consent it registers merge.agentsync and the .gitattributes lines; once registered it does not ask again', async () => {
    const { result } = await runWithAnswers<{ git: { registered?: { gitattributes: string } } }>('agentsync.init', [workspaceRoot()], {
      modal: 'Register Merge Driver',
    });
    assert.equal(result.git.registered?.gitattributes, 'created');
    // The registered command survives upgrades: plain `agentsync` on PATH, else the repository's .git/agentsync/cli.cjs shim.
    assert.match(mergeDriver() ?? '', /^(agentsync|node \S+\/\.git\/agentsync\/cli\.cjs) merge-driver %O %A %B %P$/);
    assert.match(fs.readFileSync(attributes(), 'utf8'), /^\.agentsync\/handoffs\.json merge=agentsync$/m);
    const again = await runWithAnswers<{ git: unknown }>('agentsync.init', [workspaceRoot()]);
    assert.deepEqual(again.log.asked, []);
    assert.deepEqual(again.result.git, { notApplicable: true });
  });
});
