// Sync in the editor (docs/contract.md §13): turning `sync` on makes the window sync at once and then every
// sync.interval_s; another machine's write reaches this window's store and views; the tree says when it last synced.
// Runs last in the main pass: it leaves the seeded records on a shared ref of a temporary bare repository, and
// restores .agentsync.json and the git remotes after.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import { api, cli, plainText, readHandoffs, waitFor, workspaceRoot } from './helpers';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

async function syncLine(): Promise<string> {
  const a = await api();
  const nodes: TreeNode[] = a.tree.getChildren();
  return nodes.map((n) => plainText(a.tree.getTreeItem(n).label)).find((l) => l.startsWith('Sync: ')) ?? '';
}

describe('sync through a git remote, in the editor', () => {
  const root = workspaceRoot();
  const configFile = path.join(root, '.agentsync.json');
  let savedConfig = '';
  let tmp = '';

  before(() => {
    savedConfig = fs.readFileSync(configFile, 'utf8');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-it-sync-'));
    git(tmp, 'init', '-q', '--bare', 'shared.git');
    git(root, 'remote', 'add', 'itsync', path.join(tmp, 'shared.git'));
  });

  after(async () => {
    await cli(['sync', '--disable'], root);
    fs.writeFileSync(configFile, savedConfig);
    git(root, 'remote', 'remove', 'itsync');
  });

  it('a committed sync section this machine has not agreed to is asked about once; Allow records the consent and the window syncs', async () => {
    const config = JSON.parse(savedConfig) as Record<string, unknown>;
    const win = vscode.window as unknown as { showWarningMessage: (m: string, ...items: string[]) => Thenable<string | undefined> };
    const real = win.showWarningMessage;
    const asked: string[] = [];
    win.showWarningMessage = (m: string, ...items: string[]) => {
      if (!/turns sync on/.test(m)) return real.call(vscode.window, m, ...items);
      asked.push(`${m} [${items.join(' | ')}]`);
      return Promise.resolve('Allow');
    };
    try {
      fs.writeFileSync(configFile, JSON.stringify({ ...config, sync: { remote: 'itsync', interval_s: 5 } }, null, 2));
      const line = await waitFor('the tree line about sync, synced after Allow', async () => {
        const l = await syncLine();
        return /last synced/.test(l) ? l : '';
      });
      assert.match(line, /^Sync: itsync refs\/agentsync\/state, last synced /);
    } finally {
      win.showWarningMessage = real;
    }
    assert.equal(asked.length, 1, `asked once: ${asked.join(' / ')}`);
    assert.match(asked[0], /pushed to refs\/agentsync\/state on the git remote "itsync".*\[Allow \| Review \.agentsync\.json\]$/s);
    const status = await cli(['--json', 'sync', '--status'], root);
    assert.equal((JSON.parse(status.stdout) as { data: { consented: boolean } }).data.consented, true, status.stdout);
  });

  it("turning sync on syncs at once; another machine's handoff then reaches this window, and the tree says when it synced", async () => {
    const config = JSON.parse(savedConfig) as Record<string, unknown>;
    fs.writeFileSync(configFile, JSON.stringify({ ...config, sync: { remote: 'itsync', interval_s: 5 } }, null, 2));
    // This clone's user agrees to the sync section (docs/contract.md §13); until then the window's writes are refused.
    const enabled = await cli(['--json', 'sync', '--enable'], root);
    assert.equal(enabled.code, 0, enabled.stdout + enabled.stderr);
    const line = await waitFor('the tree line about sync', async () => {
      const l = await syncLine();
      return l && /last synced/.test(l) ? l : '';
    });
    assert.match(line, /^Sync: itsync refs\/agentsync\/state, last synced \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    const seeded = readHandoffs(root).length;

    // Another machine: a clone of the same remote, writing through it.
    git(tmp, 'clone', '-q', path.join(tmp, 'shared.git'), 'other');
    const other = path.join(tmp, 'other');
    fs.writeFileSync(path.join(other, '.agentsync.json'), JSON.stringify({ sync: { remote: 'origin' } }));
    assert.equal((await cli(['--json', 'sync', '--enable'], other)).code, 0);
    const made = await cli(['--json', 'create', '--from', 'codex', '--to', 'claude', '--summary', 'From another machine'], other);
    assert.equal(made.code, 0, made.stdout + made.stderr);
    const ids = JSON.parse(made.stdout) as { data: { handoff: { handoff_id: string } } };
    assert.equal(readHandoffs(other).length, seeded + 1, "the other clone joined this window's records");

    await waitFor(
      "the other machine's handoff in this window's store",
      () => readHandoffs(root).some((h) => h.handoff_id === ids.data.handoff.handoff_id && h.summary === 'From another machine'),
      20_000,
    );
  });
});
