// Activation: where it happens, what it costs, and what it registers.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { catalogOffers, handoffContextValue, MENU_CASES, offeredBy } from '../shared/menuMatrix';
import { api, EXTENSION_ID, figures, REPO_ROOT, workspaceRoot } from './helpers';

/** The parts of package.json these tests read. */
interface PackageJson {
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string } };
  contributes: {
    viewsContainers: { activitybar: { id: string }[] };
    commands: { command: string; category: string; icon: string }[];
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
    const menu = pkg.contributes.menus['view/item/context'];
    // The unit test's matrix (test/shared/menuMatrix.ts), against package.json as the editor loaded it.
    for (const { name, handoff } of MENU_CASES) {
      assert.deepEqual(offeredBy(menu, handoffContextValue(handoff)), catalogOffers(handoff), name);
    }
  });

  it('registers every command, and no longer the old agentsync.returnHandoff (now requestRevision)', async () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as PackageJson;
    const all = new Set(await vscode.commands.getCommands(true));
    const missing = pkg.contributes.commands.map((c) => c.command).filter((c) => !all.has(c));
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
