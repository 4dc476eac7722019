// The getting-started walkthrough (contributes.walkthroughs): its steps, their command links and media, and that
// VS Code opens it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, EXTENSION_ID, REPO_ROOT, waitFor, workspaceRoot } from './helpers';
import { readWebview } from './webviewDriver';

interface Walkthrough {
  id: string;
  title: string;
  steps: {
    id: string;
    title: string;
    description: string;
    media: { markdown?: string; image?: string };
    completionEvents?: string[];
  }[];
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

  it('shows Initialize checked in an initialized folder: its completion event is a context key the extension set true', async () => {
    const a = await api();
    assert.ok(
      a.services.all().some((s) => s.isInitialized()),
      'this pass opens an initialized folder',
    );
    const init = walkthroughs()[0].steps.find((s) => s.id === 'init')!;
    const keys = (init.completionEvents ?? [])
      .filter((e) => e.startsWith('onContext:'))
      .flatMap((e) => [...e.matchAll(/\bagentsync\.\w+/g)].map((m) => m[0]));
    assert.ok(keys.length > 0, `the init step completes on a context key: ${JSON.stringify(init.completionEvents)}`);
    await waitFor('the extension to set its context keys', () => Object.keys(a.contextKeys()).length > 0);
    const set = a.contextKeys();
    for (const k of keys) assert.equal(set[k], true, `context key ${k} (set: ${JSON.stringify(set)})`);

    // What the user sees: the step's check mark in the opened walkthrough.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    const step = 'button.getting-started-step[data-step-id$="#gettingStarted#init"]';
    await waitFor('the Initialize step to render', () => readWebview(step).then(() => true));
    await waitFor('the Initialize step to show checked', () => readWebview(`${step}[aria-checked="true"]`).then(() => true));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('checks Initialize again when the folder becomes initialized after the walkthrough saw the context key once', async () => {
    // VS Code checks an onContext step only the first time its expression turns true in a window; a window whose
    // walkthrough starts after the key is set (no Welcome page at start-up) never checks it. Same here: uncheck the
    // step, take the folder's AgentSync files away and put them back.
    const a = await api();
    const step = `${EXTENSION_ID}#gettingStarted#init`;
    await vscode.commands.executeCommand('welcome.markStepIncomplete', step);
    const root = workspaceRoot();
    // The clone's home (.git/agentsync, docs/contract.md §14) holds the live record: it goes away too.
    const moves = ['.agentsync.json', '.agentsync/handoffs.json', '.git/agentsync'].map((f) => [
      path.join(root, f),
      path.join(root, `${f}.away`),
    ]);
    try {
      for (const [from, to] of moves) fs.renameSync(from, to);
      await waitFor('the context key to turn false', () => a.contextKeys()['agentsync.initialized'] === false);
    } finally {
      for (const [from, to] of moves) fs.renameSync(to, from);
    }
    await waitFor('the context key to turn true', () => a.contextKeys()['agentsync.initialized'] === true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    const button = `button.getting-started-step[data-step-id="${step}"]`;
    await waitFor('the Initialize step to render', () => readWebview(button).then(() => true));
    await waitFor('the Initialize step to show checked', () => readWebview(`${button}[aria-checked="true"]`).then(() => true));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
