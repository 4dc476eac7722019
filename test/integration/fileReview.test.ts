// Per-file review in the editor (docs/contract.md §6, "Per-file review"): a pass returned with a report listing its
// files and the commit they are on shows a node per file under the handoff; a click opens the diff of that file (the
// merge base against the commit, read from git's objects), Accept File and Reject File… send reviewFiles. Also: the
// Withdraw Pass… command, and a fan-out's children marked as one group beneath their parent in the tree, one withdrawn
// staying there marked withdrawn (and named so on the dashboard). Other agents act through the real CLI; the window
// acts as `human`, who may review and withdraw anything.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import type { HandoffNode, ReviewFileNode } from '../../src/vscode/tree/treeNodes';
import { api, cli, readHandoffs, runWithAnswers, waitFor, walk, workspaceRoot } from './helpers';
import { DASHBOARD, readWebview, showDashboard } from './webviewDriver';

function git(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): string {
  return execFileSync('git', args, { cwd: workspaceRoot(), encoding: 'utf8', input, env: { ...process.env, ...env } }).trim();
}

/**
 * The receiver's commit, made from git's plumbing so the window's checkout and files stay as they are: on top of HEAD,
 * `modified` changed and `added` new.
 */
function receiverCommit(modified: string, added: string): string {
  const index = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-it-index-')), 'index');
  const env = { GIT_INDEX_FILE: index };
  git(['read-tree', 'HEAD'], env);
  for (const [file, text] of [
    [modified, 'changed by claude\n'],
    [added, 'export const added = true;\n'],
  ]) {
    const blob = git(['hash-object', '-w', '--stdin'], env, text);
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], env);
  }
  const tree = git(['write-tree'], env);
  return git(['-c', 'user.name=Claude', '-c', 'user.email=claude@example.invalid', 'commit-tree', tree, '-p', 'HEAD', '-m', 'fix'], env);
}

async function cliOk(args: string[], input?: string): Promise<RequestResponse> {
  const file = input ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-it-report-')), 'report.json') : undefined;
  if (file) fs.writeFileSync(file, input!);
  const r = await cli(['--json', ...args, ...(file ? ['--result', file] : [])]);
  const response = JSON.parse(r.stdout) as RequestResponse;
  assert.equal(response.ok, true, r.stdout + r.stderr);
  return response;
}

/** The handoff's node once the window shows it at revision `rev` or later. */
async function handoffNode(id: string, rev = 0): Promise<HandoffNode> {
  return (await waitFor(`${id} in the tree (rev ≥ ${rev})`, async () =>
    (await walk()).find((n): n is HandoffNode => n.kind === 'handoff' && n.handoff.handoff_id === id && (n.handoff.rev ?? 0) >= rev),
  ))!;
}

async function fileNodes(id: string, rev = 0): Promise<ReviewFileNode[]> {
  const a = await api();
  return a.tree.getChildren(await handoffNode(id, rev)).filter((n): n is ReviewFileNode => n.kind === 'reviewFile');
}

describe('per-file review, withdraw and fan-out in the Handoffs tree', () => {
  const modified = () =>
    git(['ls-files'])
      .split('\n')
      .find((f) => f.endsWith('.ts')) ?? git(['ls-files']).split('\n')[0];
  const added = 'src/review/added.ts';
  let id = '';
  let commit = '';

  before(async () => {
    commit = receiverCommit(modified(), added);
    const passed = await cliOk([
      'pass',
      '--agent',
      'codex',
      '--to',
      'claude',
      '--reason',
      'code_review',
      '--summary',
      'Fix the review sample',
    ]);
    id = (passed.data as { handoff: { handoff_id: string } }).handoff.handoff_id;
    await cliOk(['claim', id, '--agent', 'claude']);
    const report = {
      status: 'complete',
      decision: 'PROCEED',
      context_summary: 'changed one file, added one',
      artifacts: {
        file_modifications: [
          { path: modified(), change: 'modified', summary: 'the fix' },
          { path: added, change: 'added' },
        ],
      },
      commit,
    };
    await cliOk(['return', id, '--agent', 'claude'], JSON.stringify(report));
  });

  it('a node per reported file under the handoff, waiting for review, whose click opens its diff', async () => {
    const a = await api();
    const files = (await waitFor('the reported files under the handoff', async () => {
      const f = await fileNodes(id);
      return f.length === 2 ? f : undefined;
    }))!;
    const items = files.map((n) => a.tree.getTreeItem(n));
    assert.deepEqual(
      items.map((i) => [i.label, i.contextValue]),
      [
        [path.basename(modified()), 'reviewFile.pending'],
        ['added.ts', 'reviewFile.pending'],
      ],
    );
    assert.match(String(items[0].description), /^modified · to review/);
    assert.equal(items[0].command?.command, 'agentsync.openFileDiff');

    // What a click on the item runs: its command, with the node.
    const click = items[0].command;
    assert.ok(click);
    await vscode.commands.executeCommand(click.command, ...((click.arguments ?? []) as unknown[]));
    const tab = (await waitFor('the diff editor tab', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputTextDiff ? t : undefined;
    }))!;
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.modified.path, `/${modified()}`);
    assert.match(input.modified.query, new RegExp(`commit=${commit}`));
    assert.match(tab.label, new RegExp(`${path.basename(modified())}`));
    const right = await vscode.workspace.openTextDocument(input.modified);
    const left = await vscode.workspace.openTextDocument(input.original);
    assert.equal(right.getText(), 'changed by claude\n');
    assert.equal(left.getText(), fs.readFileSync(path.join(workspaceRoot(), modified()), 'utf8'), 'the left side is the merge base (HEAD)');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Accept File on one file, Reject File… on the other: recorded, and the work goes back for revision', async () => {
    const a = await api();
    const [first] = await fileNodes(id);
    const accepted = await runWithAnswers<RequestResponse>('agentsync.acceptFile', [first]);
    assert.equal(accepted.result.ok, true, JSON.stringify(accepted.result));
    assert.equal((accepted.result.data as { outcome: string }).outcome, 'pending');
    assert.deepEqual(accepted.log.asked, []);

    const rev = (accepted.result.data as { handoff: { rev: number } }).handoff.rev;
    const second = (await fileNodes(id, rev))[1];
    assert.equal(a.tree.getTreeItem((await fileNodes(id, rev))[0]).contextValue, 'reviewFile.accepted');
    const rejected = await runWithAnswers<RequestResponse>('agentsync.rejectFile', [second], { input: 'needs a test' });
    assert.equal(rejected.result.ok, true, JSON.stringify(rejected.result));
    assert.deepEqual(rejected.log.asked, ['input: Why reject this file? (its receiver is told)']);
    const stored = readHandoffs().find((h) => h.handoff_id === id)!;
    assert.equal(stored.status, 'in_progress');
    assert.deepEqual(
      stored.result!.artifacts!.file_modifications.map((f) => [f.path, f.review?.decision, f.review?.by, f.review?.reason]),
      [
        [modified(), 'accepted', 'human', undefined],
        [added, 'rejected', 'human', 'needs a test'],
      ],
    );
    await waitFor('the decisions in the tree', async () => {
      const f = await fileNodes(id, rev + 1);
      return f.map((n) => a.tree.getTreeItem(n).contextValue).join() === 'reviewFile.accepted,reviewFile.rejected';
    });
  });

  it('Withdraw Pass… on a pass: asks why, and the pass ends withdrawn', async () => {
    const passed = await cliOk(['pass', '--agent', 'codex', '--to', 'claude', '--reason', 'code_review', '--summary', 'Pass to withdraw']);
    const wid = (passed.data as { handoff: { handoff_id: string } }).handoff.handoff_id;
    const node = await handoffNode(wid);
    assert.match(String((await api()).tree.getTreeItem(node).contextValue), /\.can-withdraw(\.|$)/);
    const r = await runWithAnswers<RequestResponse>('agentsync.withdrawPass', [node], { input: 'not needed any more' });
    assert.equal(r.result.ok, true, JSON.stringify(r.result));
    const stored = readHandoffs().find((h) => h.handoff_id === wid)!;
    assert.equal(stored.status, 'withdrawn');
    assert.equal(stored.state_history.at(-1)!.reason, 'not needed any more');
  });

  it('a fan-out: each child in the tree is marked as one of its parallel group', async () => {
    const fan = await cliOk([
      'pass',
      '--agent',
      'codex',
      '--to',
      'claude,copilot',
      '--reason',
      'code_review',
      '--summary',
      'Fan the review out',
    ]);
    const ids = (fan.data as { handoffs: { handoff_id: string }[] }).handoffs.map((h) => h.handoff_id);
    assert.equal(ids.length, 2);
    const a = await api();
    const marks = await Promise.all(ids.map(async (c) => String(a.tree.getTreeItem(await handoffNode(c)).description)));
    assert.deepEqual(marks.map((m) => m.split(' · ')[0]).sort(), ['parallel 1 of 2', 'parallel 2 of 2']);
  });

  it('a fan-out of held work: its children beneath their parent, each one of its group; one withdrawn from the editor stays there, withdrawn', async () => {
    const made = await cliOk(['create', '--agent', 'human', '--from', 'human', '--to', 'human', '--summary', 'Audit the session store']);
    const parentId = (made.data as { handoff: { handoff_id: string } }).handoff.handoff_id;
    await cliOk(['claim', parentId, '--agent', 'human']);
    const fan = await cliOk([
      'pass',
      parentId,
      '--agent',
      'human',
      '--to',
      'claude,copilot',
      '--reason',
      'code_review',
      '--summary',
      'Audit in parallel',
    ]);
    const ids = (fan.data as { handoffs: { handoff_id: string }[] }).handoffs.map((h) => h.handoff_id);
    const a = await api();
    const kidsOf = async (rev = 0) =>
      a.tree.getChildren(await handoffNode(parentId, rev)).filter((n): n is HandoffNode => n.kind === 'handoff');
    const kids = (await waitFor('both children beneath their parent', async () => {
      const k = await kidsOf();
      return k.length === 2 && k;
    })) as HandoffNode[];
    assert.deepEqual(
      kids.map((k) => k.handoff.handoff_id),
      ids,
    );
    assert.deepEqual(
      kids.map((k) => String(a.tree.getTreeItem(k).description).split(' · ')[0]),
      ['parallel 1 of 2', 'parallel 2 of 2'],
    );

    const r = await runWithAnswers<RequestResponse>('agentsync.withdrawPass', [kids[1]], { input: 'claude covers it' });
    assert.equal(r.result.ok, true, JSON.stringify(r.result));
    const gone = (await waitFor('the withdrawn child still beneath its parent, shown withdrawn', async () => {
      const k = (await kidsOf()).find((n) => n.handoff.handoff_id === ids[1]);
      return k?.handoff.status === 'withdrawn' && k;
    })) as HandoffNode;
    const item = a.tree.getTreeItem(gone);
    assert.equal(item.label, `${ids[1]} withdrawn`);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'circle-slash');
    assert.match(String(item.description), /^parallel 2 of 2 · /);
    assert.doesNotMatch(String(item.contextValue), /can-withdraw/, 'finished: nothing more to withdraw');
    const rows = (await walk()).filter((n) => n.kind === 'handoff' && n.handoff.handoff_id === ids[1]);
    assert.deepEqual(
      rows.map((n) => n.parent?.kind),
      ['handoff'],
      'only beneath its parent, no row of its own in a group',
    );
    await showDashboard();
    await waitFor('the parent card names the withdrawn pass', () => {
      const cards = a.dashboard.lastRendered?.model.folders[0].groups.flatMap((g) => g.cards) ?? [];
      return JSON.stringify(cards.find((c) => c.handoffId === parentId)?.chained) === JSON.stringify([ids[0], `${ids[1]} (withdrawn)`]);
    });
    await waitFor('the dashboard page names it withdrawn', async () =>
      (await readWebview(DASHBOARD)).text.includes(`Passed on: ${ids[0]}, ${ids[1]} (withdrawn)`),
    );
  });
});
