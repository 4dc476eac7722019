// The getting-started walkthrough (contributes.walkthroughs): its steps, their command links and media, and that
// VS Code opens it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, REPO_ROOT, waitFor } from './helpers';

interface Walkthrough {
  id: string;
  title: string;
  steps: { id: string; title: string; description: string; media: { markdown?: string; image?: string } }[];
}

describe('walkthrough', () => {
  const walkthroughs = () =>
    (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { walkthroughs: Walkthrough[] } }).contributes
      .walkthroughs;

  it('has the steps initialize, start, hand off, claim, end, each with a command link that exists and media on disk', async () => {
    const [w] = walkthroughs();
    assert.equal(w.id, 'gettingStarted');
    assert.deepEqual(
      w.steps.map((s) => s.id),
      ['init', 'startSession', 'handOff', 'claim', 'endSession'],
    );
    const commands = new Set(await vscode.commands.getCommands(true));
    const linked = w.steps.map((s) => [...s.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]));
    assert.deepEqual(linked, [
      ['agentsync.init'],
      ['agentsync.startSession'],
      ['agentsync.addHandoffNote'],
      ['agentsync.handoffs.focus', 'agentsync.claimHandoff'],
      ['agentsync.endSession', 'workbench.action.openSettings'],
    ]);
    for (const c of linked.flat()) assert.ok(commands.has(c), `command ${c} is registered`);
    for (const s of w.steps) {
      const media = s.media.markdown ?? s.media.image ?? '';
      assert.ok(fs.statSync(path.join(REPO_ROOT, media)).size > 100, `${s.id}: ${media}`);
    }
  });

  it('workbench.action.openWalkthrough opens agentsync.agentsync#gettingStarted', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    await waitFor('a walkthrough tab (Welcome, Walkthrough or AgentSync) to open', () =>
      tabs().some((t) => /Welcome|Walkthrough|AgentSync/.test(t)),
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
