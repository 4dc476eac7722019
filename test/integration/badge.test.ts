// The status-bar badge: stale open handoffs assigned to me, hidden at zero, click lists them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { api, findHandoff, plainText, runWithAnswers, waitFor, recordFile } from './helpers';

describe('stale badge', () => {
  it('counts the one stale handoff assigned to me', async () => {
    const a = await api();
    const s = a.badge.update();
    assert.deepEqual(s, {
      count: 1,
      text: '$(warning) 1',
      visible: true,
      tooltip: 'AgentSync: 1 stale open handoff assigned to human. Click to list them.',
    });
    assert.deepEqual(
      a.badge.stale.map((e) => e.handoff.summary),
      ['Update the release checklist'],
    );
  });

  it('counts by the clock too: two days later every open handoff of mine is stale', async () => {
    const a = await api();
    const later = a.badge.update(new Date(Date.now() + 48 * 3_600_000));
    const mine = a.services
      .all()[0]
      .view()
      .handoffs.filter((h) => h.to_agents.includes('human') && !['merged', 'escalated'].includes(h.status));
    assert.equal(later.count, mine.length);
    assert.ok(later.count > 1);
    assert.equal(a.badge.update().count, 1);
  });

  it('follows a hand edit of handoffs.json (another surface): stale → counted, fresh → hidden', async () => {
    const a = await api();
    const file = recordFile('handoffs.json');
    const original = fs.readFileSync(file, 'utf8');
    const id = findHandoff('release checklist').handoff_id;
    try {
      const data = JSON.parse(original) as { handoffs: { handoff_id: string; updated_at: string }[] };
      const h = data.handoffs.find((x) => x.handoff_id === id)!;
      h.updated_at = new Date().toISOString();
      fs.writeFileSync(file, JSON.stringify(data, null, 2));
      await waitFor('badge hidden', () => a.badge.state.count === 0);
      assert.deepEqual(a.badge.state, { count: 0, text: '', visible: false, tooltip: '' });
    } finally {
      fs.writeFileSync(file, original);
    }
    await waitFor('badge back at 1', () => a.badge.state.count === 1);
  });

  it('a different agent id has its own count (claude holds nothing stale)', async () => {
    const a = await api();
    const cfg = vscode.workspace.getConfiguration('agentsync');
    await cfg.update('agentId', 'Claude', vscode.ConfigurationTarget.Global);
    try {
      await waitFor('identity claude', () => a.identity().id === 'claude');
      assert.equal(a.badge.state.visible, false);
      const labels = a.tree
        .getChildren()
        .map((n) => a.tree.getTreeItem(n))
        .map((i) => `${plainText(i.label)}=${i.description}`);
      assert.ok(labels.includes('Shared with me=1'), labels.join(', '));
    } finally {
      await cfg.update('agentId', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('identity human', () => a.identity().id === 'human');
    assert.equal(a.badge.state.count, 1);
  });

  it('an agent id that is not one is shown at the top of the tree, with where to fix it', async () => {
    const a = await api();
    const cfg = vscode.workspace.getConfiguration('agentsync');
    await cfg.update('agentId', 'Not Valid!', vscode.ConfigurationTarget.Global);
    try {
      await waitFor('identity problem', () => a.identity().problem !== null);
      const first = a.tree.getChildren()[0];
      const item = a.tree.getTreeItem(first);
      assert.equal(item.label, 'agentsync.agentId is not a valid agent id');
      assert.match(plainText(item.tooltip), /Change it in Settings \(AgentSync › Agent Id\)/);
      assert.deepEqual(item.command?.arguments, ['agentsync.agentId']);
    } finally {
      await cfg.update('agentId', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('identity human', () => a.identity().id === 'human' && a.identity().problem === null);
  });

  it('clicking it lists the stale handoffs; picking one opens its record', async () => {
    const a = await api();
    const id = findHandoff('release checklist').handoff_id;
    const { log } = await runWithAnswers('agentsync.showStaleHandoffs', [], { pick: id });
    assert.deepEqual(log.asked, ['pick: Pick one to open its record']);
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.fsPath, recordFile('handoffs.json'));
    assert.equal(editor.document.getText(editor.selection), `"handoff_id": "${id}"`);
    assert.equal(a.badge.state.count, 1);
  });
});
