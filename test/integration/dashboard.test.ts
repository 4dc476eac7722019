// The Dashboard webview on the seeded, untouched store: its page shows the same groups as the Handoffs tree, with
// real buttons, and a screenshot of it (test-output/dashboard.png). Button presses: dashboardActions.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { api, figures, findHandoff, screenshot, sleep, waitFor } from './helpers';
import { DASHBOARD, readWebview, showDashboard } from './webviewDriver';

describe('Dashboard', () => {
  it('its page shows the open seeded handoffs in the tree groups (merged ones hidden)', async () => {
    await showDashboard();
    const page = await readWebview(DASHBOARD);
    for (const label of [
      'Assigned to me',
      'Shared with me',
      'Awaiting my review',
      'Blocked/Stale',
      'Active sessions and leases',
      'Last health',
    ])
      assert.match(page.text, new RegExp(label, 'i'), `no ${label} in the page:\n${page.text}`);
    for (const summary of [
      'Review the token refresh fix',
      'Pair on the rate limiter',
      'Add tests for the parser',
      'Update the release checklist',
      'Decide the data retention policy',
    ]) {
      assert.ok(page.text.includes(summary), `no ${summary} in the page:\n${page.text}`);
      assert.ok(page.text.includes(findHandoff(summary).handoff_id));
    }
    assert.ok(!page.text.includes('Write the parser'), 'a merged handoff is shown');
    // The lease of the in-progress seeded handoff, held by Claude.
    assert.match(page.text, new RegExp(`${findHandoff('rate limiter').handoff_id} leased to Claude`));
  });

  it('draws the same groups and counts as the Handoffs tree', async () => {
    const a = await api();
    const { model } = await showDashboard();
    const tree = a.tree.getChildren().map((n) => a.tree.getTreeItem(n));
    const dashboard = model.folders[0].groups;
    assert.deepEqual(
      dashboard.map((g) => [g.label, String(g.count)]),
      tree.map((i) => [i.label, i.description]),
    );
  });

  it('offers each move as a real, labelled button: Claim and Skip on queued, Complete on in progress, Approve on review', async () => {
    const page = await readWebview(DASHBOARD);
    assert.ok(page.buttons.length > 0);
    for (const b of page.buttons) {
      assert.equal(b.tag, 'BUTTON');
      assert.match(b.ariaLabel ?? '', /^(Claim|Start|Complete|Approve|Skip|Assign…) HO-\d{8}-\d{3}: /, `aria-label ${b.ariaLabel}`);
      assert.equal(b.disabled, false);
    }
    const labelsFor = (summary: string) =>
      page.buttons.filter((b) => b.ariaLabel?.includes(findHandoff(summary).handoff_id)).map((b) => b.text);
    assert.deepEqual(labelsFor('token refresh fix'), ['Claim', 'Skip']);
    assert.deepEqual(labelsFor('rate limiter'), ['Complete']);
    assert.deepEqual(labelsFor('tests for the parser'), ['Approve']);
    // Work nobody could be routed to (blocked, no owner) offers Assign.
    assert.deepEqual(labelsFor('data retention policy'), ['Assign…']);
  });

  it('takes a screenshot of the dashboard (the tree hidden meanwhile, to give it the side bar)', async () => {
    const a = await api();
    await showDashboard();
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('agentsync.handoffs.removeView');
    try {
      await waitFor('the tree hidden', () => !a.treeView.visible);
      await sleep(800); // let the workbench paint
      const png = await screenshot('dashboard.png');
      assert.ok(fs.statSync(png).size > 10_000);
      figures['dashboard screenshot'] = png;
    } finally {
      await vscode.commands.executeCommand('agentsync.handoffs.focus');
      await waitFor('the tree shown again', () => a.treeView.visible);
    }
  });
});
