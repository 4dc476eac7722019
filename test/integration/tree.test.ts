// The Handoffs tree through its provider: groups, items, children, and refresh when another surface writes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import { handoffContextValue } from '../../src/vscode/manifest/commandCatalog';
import { api, cli, figures, findHandoff, hoverText, plainText, waitFor, workspaceRoot } from './helpers';

async function roots(): Promise<TreeNode[]> {
  return (await api()).tree.getChildren();
}

async function group(label: string): Promise<TreeNode> {
  const a = await api();
  const g = (await roots()).find((n) => a.tree.getTreeItem(n).label === label);
  assert.ok(g, `no group ${label}`);
  return g;
}

/** Each child row as the view shows it: `label | description`. */
async function rowsUnder(node: TreeNode): Promise<string[]> {
  const a = await api();
  return a.tree.getChildren(node).map((n) => {
    const item = a.tree.getTreeItem(n);
    return `${plainText(item.label)} | ${item.description ?? ''}`;
  });
}

/** The row a seeded handoff should have: its id and status first (readable at the default width), then its summary. */
function row(summary: string, status: string, flags = ''): string {
  return `${findHandoff(summary).handoff_id} ${status} | ${flags}${summary}`;
}

describe('Handoffs tree', () => {
  it('shows the groups in order, with counts, and no notices in a trusted folder', async () => {
    const a = await api();
    const items = (await roots()).map((n) => a.tree.getTreeItem(n));
    assert.deepEqual(
      items.map((i) => i.label),
      ['Assigned to me', 'Shared with me', 'Awaiting my review', 'Blocked/Stale', 'Other open handoffs'],
    );
    assert.deepEqual(
      items.map((i) => i.description),
      ['2', '1', '1', '2', '1'],
    );
    assert.ok(items.every((i) => i.contextValue?.startsWith('group.')));
  });

  it('puts each seeded handoff in its group (merged ones hidden, chains under their parent)', async () => {
    assert.deepEqual(await rowsUnder(await group('Assigned to me')), [row('Review the token refresh fix', 'queued')]);
    assert.deepEqual(await rowsUnder(await group('Shared with me')), [row('Pair on the rate limiter', 'in progress')]);
    assert.deepEqual(await rowsUnder(await group('Awaiting my review')), [row('Add tests for the parser', 'for review')]);
    assert.deepEqual(
      (await rowsUnder(await group('Blocked/Stale'))).sort(),
      [row('Decide the data retention policy', 'blocked'), row('Update the release checklist', 'queued', 'stale · ')].sort(),
    );
    assert.deepEqual(await rowsUnder(await group('Other open handoffs')), [row('Refactor the logging setup', 'queued')]);
  });

  it('a handoff item has its id and status as label, its summary as description, a status codicon, a contextValue and a full tooltip', async () => {
    const a = await api();
    const [node] = a.tree.getChildren(await group('Assigned to me'));
    const item = a.tree.getTreeItem(node);
    assert.equal(item.label, `${findHandoff('token refresh').handoff_id} queued`);
    assert.equal(item.description, 'Review the token refresh fix');
    assert.equal(item.contextValue, handoffContextValue(findHandoff('token refresh')));
    assert.ok(item.contextValue?.startsWith('handoff.queued.') && item.contextValue.includes('.can-claim'), item.contextValue);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'circle-large-outline');
    assert.equal(item.tooltip, undefined, 'built on hover, not for every item of an expanded group');
    const tip = hoverText(a.tree, node).replace(/\\(.)/g, '$1'); // unescape the literal text
    const id = findHandoff('token refresh').handoff_id;
    assert.ok(tip.includes(`**${id}** · $(circle-large-outline) queued`), `the hover keeps id and status: ${tip}`);
    assert.match(tip, /Review the token refresh fix/);
    assert.match(tip, /Check regression risk in the token refresh path/);
    assert.match(tip, /\*\*History\*\*/);
    assert.match(tip, /queued by Codex: created/);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);

    const [stale] = a.tree
      .getChildren(await group('Blocked/Stale'))
      .filter((n) => String(a.tree.getTreeItem(n).description).includes('release checklist'));
    const staleItem = a.tree.getTreeItem(stale);
    assert.equal(staleItem.label, `${findHandoff('release checklist').handoff_id} queued`);
    assert.equal(staleItem.description, 'stale · Update the release checklist');
    assert.equal((staleItem.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.match(hoverText(a.tree, stale).replace(/\\(.)/g, '$1'), /not updated for 7\d h \(staleAfterHours is 24\)/);
  });

  it('children of a handoff: the chained handoff, its files (click opens) and its todos', async () => {
    const a = await api();
    const [node] = a.tree.getChildren(await group('Assigned to me'));
    const kids = a.tree.getChildren(node);
    assert.deepEqual(
      kids.map((k) => k.kind),
      ['handoff', 'file', 'file', 'todo', 'todo'],
    );
    const items = kids.map((k) => a.tree.getTreeItem(k));
    assert.equal(items[0].label, `${findHandoff('auth regression suite').handoff_id} queued`);
    assert.equal(items[0].description, 'Run the auth regression suite');
    assert.deepEqual(
      items.slice(1, 3).map((i) => [i.label, i.description]),
      [
        ['session.ts', 'src/auth'],
        ['session.test.ts', 'test/auth'],
      ],
    );
    assert.deepEqual(
      items.slice(3).map((i) => [i.label, (i.iconPath as vscode.ThemeIcon).id]),
      [
        ['Reproduce the race with two tabs', 'pass'],
        ['Add a regression test', 'circle-large-outline'],
      ],
    );
    assert.equal(a.tree.getParent(kids[1]), node);

    const open = items[1].command!;
    await vscode.commands.executeCommand(open.command, ...((open.arguments ?? []) as unknown[]));
    await waitFor(
      'session.ts open',
      () => vscode.window.activeTextEditor?.document.uri.fsPath === path.join(workspaceRoot(), 'src/auth/session.ts'),
    );
  });

  it('refreshes when the CLI (another process) changes the store', async () => {
    const a = await api();
    let fired = 0;
    const sub = a.tree.onDidChangeTreeData(() => fired++);
    try {
      // When handoffs.json is renamed into place (seen by a watcher of this test) → when the tree event fires.
      let renamedAt = 0;
      let eventAt = 0;
      const probe = fs.watch(
        path.join(workspaceRoot(), '.agentsync'),
        (_e, name) => name === 'handoffs.json' && (renamedAt ||= performance.now()),
      );
      const timing = a.tree.onDidChangeTreeData(() => (eventAt ||= performance.now()));
      const r = await cli(['create', '--from', 'codex', '--to', 'human', '--summary', 'Created from the CLI', '--json']);
      assert.equal(r.code, 0, r.stderr || r.stdout);
      // The event comes from a file watcher (no read by this test could cause it).
      await waitFor('onDidChangeTreeData after the CLI write', () => fired > 0);
      timing.dispose();
      probe.close();
      assert.ok((await rowsUnder(await group('Assigned to me'))).includes(row('Created from the CLI', 'queued')));
      figures['tree refresh after a CLI write (handoffs.json renamed in → tree event)'] = `${(eventAt - renamedAt).toFixed(1)} ms`;
    } finally {
      sub.dispose();
    }
  });

  it('the tooltip of a passed handoff shows its request (docs/contract.md §6: phase, feature, spec, constraints, instructions)', async () => {
    const a = await api();
    const pass = {
      action: 'passOver',
      agent: 'codex',
      to: 'claude',
      reason: 'research',
      summary: 'Research the JWT feature',
      request: {
        feature: 'jwt-authentication',
        spec_path: 'specs/auth/requirements.md',
        constraints: ['no breaking changes'],
        instructions: 'Find existing auth code',
        expected_output: 'structured_findings',
      },
    };
    const file = path.join(os.tmpdir(), `agentsync-pass-request-${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify(pass));
    try {
      const r = await cli(['request', file]);
      assert.equal(r.code, 0, r.stderr || r.stdout);
    } finally {
      fs.rmSync(file, { force: true });
    }
    const node = await waitFor('the passed handoff in the tree', async () =>
      a.tree.getChildren(await group('Other open handoffs')).find((n) => a.tree.getTreeItem(n).description === 'Research the JWT feature'),
    );
    assert.ok(node);
    const tip = hoverText(a.tree, node).replace(/\\(.)/g, '$1');
    assert.match(tip, /\*\*Request\*\* \(research phase\)/);
    assert.match(tip, /- Feature: jwt-authentication/);
    assert.match(tip, /- Spec: specs\/auth\/requirements\.md/);
    assert.match(tip, /- Expected output: structured_findings/);
    assert.match(tip, /- Constraints: no breaking changes/);
    assert.match(tip, /- Instructions: Find existing auth code/);
  });
});
