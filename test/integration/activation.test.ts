// Activation: where it happens, what it costs, and what it registers.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, EXTENSION_ID, figures, REPO_ROOT, workspaceRoot } from './helpers';

const COMMANDS = [
  'passOver',
  'init',
  'startSession',
  'endSession',
  'addHandoffNote',
  'claimHandoff',
  'completeHandoff',
  'listHandoffs',
  'approveHandoff',
  'requestRevision',
  'returnToOriginator',
  'assignHandoff',
  'escalateHandoff',
  'openRecord',
  'showHistory',
  'openTracker',
  'refresh',
  'showStaleHandoffs',
  'snoozeHandoff',
].map((c) => `agentsync.${c}`);

/** The parts of package.json these tests read. */
interface PackageJson {
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string } };
  contributes: {
    viewsContainers: { activitybar: { id: string }[] };
    commands: { category: string; icon: string }[];
    menus: Record<string, { command: string; when: string; group: string }[]>;
  };
}

describe('activation', () => {
  it('is active in a workspace with .agentsync.json, with one service per folder', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const a = await api();
    assert.equal(ext.isActive, true);
    assert.deepEqual(
      a.services.all().map((s) => s.layout.root),
      [workspaceRoot()],
    );
    assert.equal(a.identity().id, 'human');
    assert.ok(a.activationMs > 0 && a.activationMs < 1000, `activationMs = ${a.activationMs}`);
    figures['activate() time'] = `${a.activationMs.toFixed(2)} ms`;
  });

  it('activation events and contributions are declared as the package says', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as PackageJson;
    assert.deepEqual(pkg.activationEvents, ['workspaceContains:.agentsync.json', 'workspaceContains:.agentsync/handoffs.json']);
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.equal(pkg.contributes.viewsContainers.activitybar[0].id, 'agentsync');
    assert.ok(pkg.contributes.commands.every((c) => c.category === 'AgentSync' && /^\$\([a-z-]+\)$/.test(c.icon)));
  });

  it('the context menus offer each move exactly on the items flagged can-<move> (the tree sets the flags from the catalog)', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as PackageJson;
    const entries = pkg.contributes.menus['view/item/context'];
    // A small evaluator for the clauses used there: `view == x`, `viewItem == x`, `viewItem =~ /re/`, joined by &&.
    const holds = (when: string, ctx: Record<string, string>) =>
      when.split('&&').every((clause) => {
        const m = /^\s*(\w+)\s*(==|=~)\s*(.+?)\s*$/.exec(clause)!;
        const value = ctx[m[1]] ?? '';
        if (m[2] === '==') return value === m[3];
        const re = /^\/(.*)\/$/.exec(m[3])!;
        return new RegExp(re[1]).test(value);
      });
    const offered = (status: string) =>
      [
        ...new Set(
          entries
            .filter((e) => !e.group.startsWith('inline') && holds(e.when, { view: 'agentsync.handoffs', viewItem: `handoff.${status}` }))
            .map((e) => e.command.replace('agentsync.', '')),
        ),
      ].sort();
    assert.deepEqual(offered('queued.can-claim.can-pass.can-escalate.can-snooze'), [
      'claimHandoff',
      'escalateHandoff',
      'openRecord',
      'passOver',
      'showHistory',
      'snoozeHandoff',
    ]);
    assert.deepEqual(offered('in_progress.can-complete.can-pass.can-escalate.can-snooze'), [
      'completeHandoff',
      'escalateHandoff',
      'openRecord',
      'passOver',
      'showHistory',
      'snoozeHandoff',
    ]);
    assert.deepEqual(offered('in_progress.can-complete.can-return.can-pass.can-escalate.can-snooze.returnable'), [
      'completeHandoff',
      'escalateHandoff',
      'openRecord',
      'passOver',
      'returnToOriginator',
      'showHistory',
      'snoozeHandoff',
    ]);
    assert.deepEqual(offered('blocked.can-pass.can-escalate.can-snooze'), [
      'escalateHandoff',
      'openRecord',
      'passOver',
      'showHistory',
      'snoozeHandoff',
    ]);
    assert.deepEqual(offered('blocked.can-assign.can-pass.can-escalate.can-snooze.unassigned'), [
      'assignHandoff',
      'escalateHandoff',
      'openRecord',
      'passOver',
      'showHistory',
      'snoozeHandoff',
    ]);
    assert.deepEqual(offered('ready_for_review.can-approve.can-revise.can-escalate.can-snooze'), [
      'approveHandoff',
      'escalateHandoff',
      'openRecord',
      'requestRevision',
      'showHistory',
      'snoozeHandoff',
    ]);
    assert.deepEqual(offered('approved.can-escalate.can-snooze'), ['escalateHandoff', 'openRecord', 'showHistory', 'snoozeHandoff']);
    assert.deepEqual(offered('merged'), ['openRecord', 'showHistory']);
    assert.deepEqual(offered('escalated'), ['openRecord', 'showHistory']);
  });

  it('registers every command, and no longer the old agentsync.returnHandoff (now requestRevision)', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = COMMANDS.filter((c) => !all.has(c));
    assert.deepEqual(missing, []);
    assert.equal(all.has('agentsync.returnHandoff'), false);
  });

  it('the bundle itself loads quickly (re-evaluated in this extension host)', () => {
    const bundle = path.join(REPO_ROOT, 'dist/extension.js');
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      delete require.cache[require.resolve(bundle)];
      const t0 = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- re-evaluating the bundle is what is measured
      const mod = require(bundle) as { activate?: unknown };
      times.push(performance.now() - t0);
      assert.equal(typeof mod.activate, 'function');
    }
    times.sort((x, y) => x - y);
    figures['dist/extension.js evaluation (median of 5 re-requires)'] = `${times[2].toFixed(2)} ms`;
  });
});
