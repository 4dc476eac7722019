// Merge conflicts in the tree (docs/contract.md §3 `conflicts`): after a git pull leaves conflicts on a record, the handoff
// shows a warning and one child per conflict (field, ours, theirs, kept); a human clears them from the conflict node.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import { api, findHandoff, runWithAnswers, waitFor, recordFile } from './helpers';

const SUMMARY = 'Reconcile the two release branches';

async function handoffNode(summary: string): Promise<TreeNode | undefined> {
  const a = await api();
  for (const g of a.tree.getChildren())
    for (const n of a.tree.getChildren(g)) if (n.kind === 'handoff' && n.handoff.summary === summary) return n;
  return undefined;
}

describe('merge conflicts in the tree', () => {
  it('a record with conflicts shows a warning and a child per conflict with field, ours, theirs and the kept value', async () => {
    const a = await api();
    const created = await a.services.all()[0].dispatch({
      action: 'createHandoff',
      handoff: { from_agent: 'codex', to_agents: ['human'], owner_mode: 'single', summary: SUMMARY },
    });
    assert.equal(created.ok, true, JSON.stringify(created));
    // Conflicts written directly, as a `git pull` through the merge driver would leave them.
    const file = recordFile('handoffs.json');
    const store = JSON.parse(fs.readFileSync(file, 'utf8')) as { handoffs: { summary: string; conflicts?: unknown[]; rev: number }[] };
    const rec = store.handoffs.find((h) => h.summary === SUMMARY)!;
    rec.conflicts = [{ field: 'to_agents', ours: ['copilot'], theirs: ['codex'], resolved_to: ['copilot'], at: new Date().toISOString() }];
    rec.rev += 1;
    fs.writeFileSync(file, JSON.stringify(store, null, 2) + '\n');

    const node: TreeNode = (await waitFor('the handoff with its conflict', async () => {
      const n = await handoffNode(SUMMARY);
      return n && n.kind === 'handoff' && n.handoff.conflicts?.length ? n : undefined;
    })) as TreeNode;
    const item = a.tree.getTreeItem(node);
    assert.equal(item.label, `${findHandoff(SUMMARY).handoff_id} queued`);
    assert.equal(item.description, `1 merge conflict · ${SUMMARY}`);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const children = a.tree.getChildren(node).filter((n) => n.kind === 'conflict');
    assert.equal(children.length, 1);
    const child = a.tree.getTreeItem(children[0]);
    assert.equal(child.label, 'Merge conflict: to_agents');
    assert.equal(child.description, 'ours ["copilot"] · theirs ["codex"] → ["copilot"]');
    assert.equal(child.contextValue, 'conflict');
  });

  it('Clear Merge Conflicts on the conflict node (as the human window) clears them on disk and in the tree', async () => {
    const a = await api();
    const node = (await handoffNode(SUMMARY))!;
    const conflict = a.tree.getChildren(node).find((n) => n.kind === 'conflict')!;
    const { result, log } = await runWithAnswers<RequestResponse>('agentsync.clearConflicts', [conflict]);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(log.asked, []);
    assert.equal(findHandoff(SUMMARY).conflicts, undefined);
    await waitFor('the warning gone from the tree', async () => a.tree.getTreeItem((await handoffNode(SUMMARY))!).description === SUMMARY);
  });
});
