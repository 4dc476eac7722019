// The extension as users install it (run.mjs pass "installed"): `npm run package` built the VSIX, the editor server
// installed it with --install-extension into a fresh extensions folder, and this window runs it from there; the
// development copy is not loaded (the window's development extension is an empty driver that only carries these
// tests). Checks what a user sees first: activation, the tree, the drop zone, the badge, `agentsync` in a terminal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, dropRequest, EXTENSION_ID, plainText, readHandoffs, REPO_ROOT, waitFor, whenFileExists, workspaceRoot } from './helpers';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the installed VSIX', () => {
  it('is the one installed from the VSIX (not the checkout) and activates in this initialized folder', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    const dir = process.env.AGENTSYNC_IT_EXTENSIONS_DIR;
    assert.ok(dir, 'run.mjs names the extensions folder');
    assert.ok(ext.extensionPath.startsWith(path.resolve(dir) + path.sep), `${ext.extensionPath} is under ${dir}`);
    assert.equal((ext.packageJSON as { version: string }).version, VERSION);
    // The package holds no sources: what runs is the bundle.
    assert.equal(fs.existsSync(path.join(ext.extensionPath, 'src')), false);
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'dist/extension.js')));
    await waitFor('the extension to activate (workspaceContains:.agentsync.json)', () => ext.isActive, 30_000);
  });

  it('shows the seeded handoffs in the Handoffs tree', async () => {
    const a = await api();
    const seeded = readHandoffs().map((h) => h.handoff_id);
    const shown = await waitFor('handoff rows', () => {
      const ids = a.tree
        .getChildren()
        .flatMap((g) => a.tree.getChildren(g))
        .map((n) => plainText(a.tree.getTreeItem(n).label))
        .map((l) => /^HO-\d{8}-\d{3}/.exec(l)?.[0])
        .filter(Boolean);
      return ids.length > 0 ? ids : undefined;
    });
    for (const id of shown!) assert.ok(seeded.includes(id!), `${id} is in the store`);
  });

  it('answers a request dropped into .agentsync/requests/', async () => {
    const a = await api();
    await waitFor('the drop zone', () => a.dropZones.stateOf(a.services.all()[0]).running, 20_000);
    dropRequest('installed-check.json', {
      action: 'createHandoff',
      request_id: 'it-installed-1',
      agent: 'codex',
      handoff: { from_agent: 'codex', to_agents: ['human'], owner_mode: 'single', summary: 'Dropped at the installed extension' },
    });
    await whenFileExists(path.join(workspaceRoot(), '.agentsync/responses/it-installed-1.json'), 20_000);
    const response = JSON.parse(fs.readFileSync(path.join(workspaceRoot(), '.agentsync/responses/it-installed-1.json'), 'utf8')) as {
      ok: boolean;
    };
    assert.equal(response.ok, true, JSON.stringify(response));
    assert.ok(readHandoffs().some((h) => h.summary === 'Dropped at the installed extension'));
  });

  it('counts the stale handoff in the status-bar badge', async () => {
    const a = await api();
    const state = await waitFor('the badge', () => {
      const s = a.badge.update();
      return s.visible ? s : undefined;
    });
    assert.equal(state!.count, 1);
    assert.equal(state!.text, '$(warning) 1');
  });

  it("puts `agentsync` (the installed extension's CLI) on a new terminal's PATH", async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-it-terminal-')), 'out.txt');
    const script = `{ command -v agentsync; agentsync --version; } > '${out}.part' 2>&1; mv '${out}.part' '${out}'`;
    // The PATH entry comes from the extension's environment collection, applied to terminals started after activation.
    const terminal = vscode.window.createTerminal({ name: 'agentsync PATH check', shellPath: '/bin/sh', shellArgs: ['-c', script] });
    try {
      await whenFileExists(out, 30_000);
      const [where, version] = fs.readFileSync(out, 'utf8').trim().split('\n');
      assert.match(where, /agentsync$/, `command -v agentsync: ${where}`);
      assert.equal(version, VERSION, `agentsync --version in the terminal (from ${where})`);
      // The launcher runs the CLI of the installed extension, not a checkout's.
      assert.ok(fs.readFileSync(where, 'utf8').includes(ext.extensionPath), `${where} runs ${ext.extensionPath}`);
    } finally {
      terminal.dispose();
    }
  });
});
