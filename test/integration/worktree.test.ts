// A window on a LINKED worktree of an initialized clone (docs/contract.md §14; run.mjs pass "worktree"): the tree and
// the badge show the clone's one record, written from the main checkout by the CLI; the drop zone answers the requests
// of every worktree of the clone, each in its own worktree, each once, only while the window is trusted; and "Open in
// New Worktree" makes a handoff's worktree and opens it in a new window.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import { worktreeBranchFor } from '../../src/core/domain/worktreeBinding';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import {
  api,
  cli,
  dropRequest,
  findHandoff,
  readHandoffs,
  REPO_ROOT,
  runWithAnswers,
  sleep,
  waitFor,
  whenFileExists,
  workspaceRoot,
} from './helpers';

/** The clone's main checkout (seeded by run.mjs beside the linked worktree this window opened). */
function mainCheckout(): string {
  const main = process.env.AGENTSYNC_IT_MAIN_CHECKOUT;
  assert.ok(main, 'run this file through test/integration/run.mjs --only worktree');
  return main;
}

/** Every handoff row of the tree, at any depth (chains sit under their parent). */
async function handoffRows(): Promise<{ id: string; status: string; summary: string }[]> {
  const a = await api();
  const rows: { id: string; status: string; summary: string }[] = [];
  const walk = (nodes: TreeNode[], depth: number) => {
    for (const n of nodes) {
      if (n.kind === 'handoff') rows.push({ id: n.handoff.handoff_id, status: n.handoff.status, summary: n.handoff.summary });
      if (depth < 4 && (n.kind === 'group' || n.kind === 'handoff' || n.kind === 'folder')) walk(a.tree.getChildren(n), depth + 1);
    }
  };
  walk(a.tree.getChildren(), 0);
  return rows;
}

/** A createHandoff request written into `root`'s drop zone, as an agent working in that worktree would. */
function dropCreate(root: string, id: string, summary: string): void {
  // Both folders made here, so the test can watch responses/ (helpers.ts whenFileExists) from the start.
  for (const dir of ['requests', 'responses']) fs.mkdirSync(path.join(root, '.agentsync', dir), { recursive: true });
  dropRequest(
    `${id}.json`,
    {
      action: 'createHandoff',
      request_id: id,
      agent: 'codex',
      handoff: { from_agent: 'codex', to_agents: ['copilot'], owner_mode: 'single', summary },
    },
    root,
  );
}

const responseFile = (root: string, id: string) => path.join(root, '.agentsync/responses', `${id}.json`);
const readResponse = (root: string, id: string) => JSON.parse(fs.readFileSync(responseFile(root, id), 'utf8')) as RequestResponse;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('a window on a linked worktree of the clone', () => {
  it("is a linked worktree, and the tree shows the clone's one record", async () => {
    const a = await api();
    assert.ok(fs.statSync(path.join(workspaceRoot(), '.git')).isFile(), 'the window should be on a linked worktree');
    assert.equal(a.services.all()[0].layout.placement?.location.isMain, false);
    await waitFor('the seeded handoffs in the tree', async () =>
      (await handoffRows()).some((x) => x.summary === 'Review the token refresh fix'),
    );
    const rows = await handoffRows();
    assert.ok(rows.some((x) => x.summary === 'Update the release checklist'));
  });

  it('shows a handoff created, then claimed, in the main checkout by the CLI', async () => {
    const made = await cli(
      ['create', '--from', 'codex', '--to', 'human', '--summary', 'Made in the main checkout', '--quiet'],
      mainCheckout(),
    );
    assert.equal(made.code, 0, made.stderr);
    const id = made.stdout.trim();
    await waitFor(`${id} queued in the tree`, async () => (await handoffRows()).some((r) => r.id === id && r.status === 'queued'));
    const claimed = await cli(['claim', id, '--agent', 'human'], mainCheckout());
    assert.equal(claimed.code, 0, claimed.stderr);
    await waitFor(`${id} in progress in the tree`, async () =>
      (await handoffRows()).some((r) => r.id === id && r.status === 'in_progress'),
    );
  });

  it('the stale badge follows the record: a claim in the main checkout clears it', async () => {
    const a = await api();
    await waitFor('one stale handoff of mine', () => a.badge.state.count === 1);
    const stale = findHandoff('Update the release checklist', mainCheckout());
    const claimed = await cli(['claim', stale.handoff_id, '--agent', 'human'], mainCheckout());
    assert.equal(claimed.code, 0, claimed.stderr);
    await waitFor('the badge hidden', () => a.badge.state.count === 0 && !a.badge.state.visible);
  });

  it('answers a request written in this linked worktree, there', async () => {
    await waitFor('drop zone running', async () => (await api()).dropZones.stateOf((await api()).services.all()[0]).running);
    dropCreate(workspaceRoot(), 'it-wt-own', 'Asked in the linked worktree');
    await whenFileExists(responseFile(workspaceRoot(), 'it-wt-own'));
    assert.equal(readResponse(workspaceRoot(), 'it-wt-own').ok, true);
    assert.ok(readHandoffs(mainCheckout()).some((h) => h.summary === 'Asked in the linked worktree'));
  });

  it('answers a request written in the main checkout, in the main checkout', async () => {
    dropCreate(mainCheckout(), 'it-wt-main', 'Asked in the main checkout');
    await whenFileExists(responseFile(mainCheckout(), 'it-wt-main'));
    assert.equal(readResponse(mainCheckout(), 'it-wt-main').ok, true);
    assert.equal(fs.existsSync(responseFile(workspaceRoot(), 'it-wt-main')), false);
  });

  it('answers in a worktree added while it runs, and lets go of it once removed', async () => {
    const added = path.join(path.dirname(mainCheckout()), 'added');
    git(mainCheckout(), 'worktree', 'add', '-q', '-b', 'added', added);
    dropCreate(added, 'it-wt-added', 'Asked in an added worktree');
    await whenFileExists(responseFile(added, 'it-wt-added'));
    assert.equal(readResponse(added, 'it-wt-added').ok, true);
    git(mainCheckout(), 'worktree', 'remove', '--force', added);
    // The same path, now a plain folder the clone no longer lists: nobody answers there.
    dropCreate(added, 'it-wt-gone', 'Asked where no worktree is');
    await sleep(5_000);
    assert.equal(fs.existsSync(responseFile(added, 'it-wt-gone')), false);
    fs.rmSync(added, { recursive: true, force: true });
  });

  it('answers the clone only while the window is trusted', async () => {
    const a = await api();
    const service = a.services.all()[0];
    a.trust.simulate(false);
    try {
      await waitFor('drop zone off', () => !a.dropZones.stateOf(service).running);
      dropCreate(mainCheckout(), 'it-wt-untrusted', 'Asked while the window is restricted');
      await sleep(4_000);
      assert.equal(fs.existsSync(responseFile(mainCheckout(), 'it-wt-untrusted')), false);
    } finally {
      a.trust.simulate(undefined);
    }
    await whenFileExists(responseFile(mainCheckout(), 'it-wt-untrusted'), 15_000);
  });

  it('answers each request once while `agentsync watch` answers the same clone', async () => {
    const a = await api();
    const runner = a.dropZones.runnerOf(a.services.all()[0]) as unknown as { stats: { answered: number; refused: number } };
    const before = runner.stats.answered + runner.stats.refused;
    const watch = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/agentsync.js'), 'watch', '--interval-ms', '100'], {
      cwd: mainCheckout(),
    });
    let out = '';
    watch.stdout.on('data', (d: Buffer) => (out += d.toString()));
    watch.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor('agentsync watch started', () => out.includes('watching'), 20_000);
      const ids = Array.from({ length: 20 }, (_, i) => `it-wt-once-${i}`);
      ids.forEach((id, i) => dropCreate(i % 2 ? mainCheckout() : workspaceRoot(), id, `Once probe ${i}`));
      for (const [i, id] of ids.entries()) await whenFileExists(responseFile(i % 2 ? mainCheckout() : workspaceRoot(), id), 20_000);
    } finally {
      watch.kill('SIGTERM');
    }
    await new Promise((r) => watch.once('exit', r));
    const byWatch = Number(/answered (\d+)/.exec(out)?.[1] ?? NaN);
    const byEditor = runner.stats.answered + runner.stats.refused - before;
    assert.equal(byWatch + byEditor, 20, `watch answered ${byWatch}, the editor ${byEditor}: ${out}`);
    const made = readHandoffs(mainCheckout()).filter((h) => h.summary.startsWith('Once probe '));
    assert.equal(made.length, 20);
  });

  it("Open in New Worktree makes the handoff's worktree beside the clone and opens it in a new window", async () => {
    const a = await api();
    const h = findHandoff('Refactor the logging setup', mainCheckout());
    const calls: unknown[][] = [];
    const saved = a.newWindow.execute;
    a.newWindow.execute = (...args: unknown[]) => (calls.push(args), Promise.resolve(undefined));
    try {
      const { result, log } = await runWithAnswers<{ ok: boolean; made?: { worktree: { path: string; name: string } } }>(
        'agentsync.openInNewWorktree',
        [{ handoffId: h.handoff_id }],
        { input: 'logging-wt' },
      );
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.match(log.asked.join(' / '), /input: Where to make the worktree/);
      const target = fs.realpathSync(path.join(path.dirname(mainCheckout()), 'logging-wt'));
      assert.equal(result.made?.worktree.path, target);
      assert.equal(git(target, 'branch', '--show-current'), worktreeBranchFor(h.handoff_id));
      const bound = findHandoff('Refactor the logging setup', mainCheckout());
      assert.equal(bound.worktree?.name, result.made?.worktree.name);
      assert.equal(calls.length, 1);
      const [command, uri, options] = calls[0] as [string, vscode.Uri, object];
      assert.equal(command, 'vscode.openFolder');
      assert.equal(uri.fsPath, target);
      assert.deepEqual(options, { forceNewWindow: true });
      // The new worktree is the clone's too: an agent's request there is answered there.
      dropCreate(target, 'it-wt-new', 'Asked in the new worktree');
      await whenFileExists(responseFile(target, 'it-wt-new'));
      assert.equal(readResponse(target, 'it-wt-new').ok, true);
    } finally {
      a.newWindow.execute = saved;
    }
  });

  it('Open in New Worktree refuses finished work, says why, and creates nothing', async () => {
    const a = await api();
    const h = findHandoff('Write the parser', mainCheckout());
    const calls: unknown[][] = [];
    const saved = a.newWindow.execute;
    a.newWindow.execute = (...args: unknown[]) => (calls.push(args), Promise.resolve(undefined));
    try {
      const { result, log } = await runWithAnswers<{ ok: boolean; reason?: string }>('agentsync.openInNewWorktree', [
        { handoffId: h.handoff_id },
      ]);
      assert.deepEqual(log.asked, [], 'refused before any question');
      assert.equal(result.ok, false);
      assert.equal(result.reason, 'invalid_request');
      assert.match(log.errors.join('\n'), /merged: finished work gets no worktree; nothing was created/);
      assert.doesNotMatch(git(mainCheckout(), 'worktree', 'list'), /parser-wt/);
      assert.equal(git(mainCheckout(), 'branch', '--list', worktreeBranchFor(h.handoff_id)), '');
      assert.equal(findHandoff('Write the parser', mainCheckout()).rev, h.rev);
      assert.equal(calls.length, 0);
    } finally {
      a.newWindow.execute = saved;
    }
  });
});
