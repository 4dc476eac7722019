// Delegation in the editor (docs/agentsync-documentation.md, "The editor"): Assign for unroutable work, Return to
// Originator, a chain shown under its parent across groups, the report and chain in the tooltip, Show History, the
// notify_on_return message, and audit retention applied when the editor's drop zone starts. Other agents act through
// the real CLI (a child process); the window acts as `human`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Handoff } from '../../src/core/domain/handoffSchema';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import type { HandoffNode } from '../../src/vscode/tree/treeNodes';
import { api, cli, findHandoff, hoverText, readHandoffs, runWithAnswers, waitFor, walk, workspaceRoot, recordFile } from './helpers';

/** Runs the CLI with --json and returns the response envelope (asserting it succeeded). */
async function cliOk(args: string[]): Promise<RequestResponse> {
  const r = await cli(['--json', ...args]);
  const response = JSON.parse(r.stdout) as RequestResponse;
  assert.equal(response.ok, true, r.stdout + r.stderr);
  return response;
}

/** A report file for `agentsync return --result`. */
function reportFile(report: object): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-it-report-')), 'report.json');
  fs.writeFileSync(file, JSON.stringify(report));
  return file;
}

/** Waits until this window's store view has the handoff (the CLI wrote it in another process). */
async function seen(id: string, status?: string): Promise<Handoff> {
  return (await waitFor(`${id} seen by the editor${status ? ` as ${status}` : ''}`, async () =>
    (await api()).services
      .all()[0]
      .view()
      .handoffs.find((h) => h.handoff_id === id && (!status || h.status === status)),
  ))!;
}

async function nodesOf(id: string): Promise<HandoffNode[]> {
  return (await walk()).filter((n): n is HandoffNode => n.kind === 'handoff' && n.handoff.handoff_id === id);
}

/** Passes new work from `from` to `to` with the CLI; returns the passed handoff's id. */
async function pass(from: string, to: string, summary: string): Promise<string> {
  const r = await cliOk(['pass', '--agent', from, '--to', to, '--reason', 'code_review', '--summary', summary]);
  return (r.data!.handoff as Handoff).handoff_id;
}

describe('delegation in the editor', () => {
  it('a blocked handoff nobody could be routed to offers Assign; Assign from the tree gives it to the agent picked', async () => {
    const a = await api();
    const h = findHandoff('data retention policy');
    const [node] = await nodesOf(h.handoff_id);
    assert.match(a.tree.getTreeItem(node).contextValue ?? '', /^handoff\.blocked(\..*)?\.can-assign\b.*\.unassigned$/);
    const { result, log } = await runWithAnswers<RequestResponse>('agentsync.assignHandoff', [node], { pick: 'Codex' });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(log.asked, ['pick: Who takes it over?']);
    assert.match(log.info[0], /HO-\d{8}-004 is assigned to Codex and queued/);
    const after = findHandoff('data retention policy');
    assert.deepEqual([after.status, after.owner_mode, after.to_agents], ['queued', 'single', ['codex']]);
    assert.match(after.state_history.at(-1)?.reason ?? '', /assigned to codex/);
  });

  it('Assign from the palette lists only unroutable work; an unknown agent is refused and nothing changes', async () => {
    const made = await cliOk(['create', '--from', 'codex', '--caps', 'legal_review', '--summary', 'Sign off the licence text']);
    const id = (made.data!.handoff as Handoff).handoff_id;
    await seen(id, 'blocked');
    const store = recordFile('handoffs.json');
    const before = fs.readFileSync(store, 'utf8');
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.assignHandoff',
      [],
      { pick: id },
      { pick: 'Another agent' },
      { input: 'nobody-here' },
    );
    assert.equal(result.ok, false);
    assert.equal(result.reason, 'unknown_agent');
    assert.equal(log.asked[0], 'pick: Which handoff do you want to assign?');
    assert.match(log.errors[0], /nobody-here/);
    assert.equal(fs.readFileSync(store, 'utf8'), before);
  });

  it('Return to Originator: work passed to me goes back with my report; Return for Revision is a different command', async () => {
    const id = await pass('claude', 'human', 'Check the cache keys');
    await seen(id);
    assert.equal((await runWithAnswers<RequestResponse>('agentsync.claimHandoff', [id])).result.ok, true);
    const a = await api();
    await waitFor('the item offers Return to Originator', async () =>
      (await nodesOf(id)).some((n) =>
        /^handoff\.in_progress(\..*)?\.can-return\b.*\.returnable$/.test(a.tree.getTreeItem(n).contextValue ?? ''),
      ),
    );
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.returnToOriginator',
      [id],
      { input: 'Keys are per tenant now' },
      { input: 'old keys linger for a day; no metrics yet' },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    const back = result.data!.returned as Handoff;
    assert.match(log.info[0], new RegExp(`${id} went back to Claude as ${back.handoff_id}`));
    const stored = readHandoffs().find((h) => h.handoff_id === back.handoff_id)!;
    assert.deepEqual(
      [stored.to_agents, stored.reason, stored.result?.issues],
      [['claude'], 'return', ['old keys linger for a day', 'no metrics yet']],
    );
    assert.equal(findHandoff('Check the cache keys').status, 'ready_for_review');
    const all = await vscode.commands.getCommands(true);
    assert.ok(all.includes('agentsync.requestRevision') && !all.includes('agentsync.returnHandoff'));
  });

  it('notify_on_return: work coming back to me shows a message once; Open shows its history', async () => {
    const shown: string[] = [];
    const win = vscode.window as unknown as Record<string, unknown>;
    const original = win.showInformationMessage;
    win.showInformationMessage = (m: string, ...items: string[]) => {
      shown.push(m);
      return Promise.resolve(/came back to you/.test(m) && items.includes('Open') ? 'Open' : undefined);
    };
    try {
      // A pass whose inline policy says never: its return is silent.
      const quietFile = reportFile({
        action: 'passOver',
        agent: 'human',
        to: 'claude',
        reason: 'r',
        summary: 'Quiet work',
        override: { notify_on_return: false },
      });
      const quiet = ((await cliOk(['request', quietFile])).data!.handoff as Handoff).handoff_id;
      await cliOk(['claim', quiet, '--agent', 'claude']);
      await cliOk(['return', quiet, '--agent', 'claude']);
      // The default policy (notify_on_return: true).
      const id = await pass('human', 'claude', 'Profile the parser');
      await cliOk(['claim', id, '--agent', 'claude']);
      const report = {
        status: 'complete',
        decision: 'PROCEED',
        context_summary: 'Parser is 3x faster',
        findings: { hot_path: 'tokenize' },
        issues: ['no benchmark in CI'],
      };
      const r = await cliOk(['return', id, '--agent', 'claude', '--result', reportFile(report)]);
      const back = (r.data!.returned as Handoff).handoff_id;
      await waitFor('the message', () => shown.some((m) => m.includes(back)));
      const messages = shown.filter((m) => /came back to you/.test(m));
      assert.deepEqual(messages, [`AgentSync: work came back to you from Claude as ${back}: Parser is 3x faster`]);
      const editor = (await waitFor('the history document', () =>
        vscode.window.activeTextEditor?.document.uri.scheme === 'agentsync-history' ? vscode.window.activeTextEditor : undefined,
      ))!;
      assert.match(editor.document.getText(), new RegExp(`^# ${back}: `));
      // Another store change: the same return is not announced again.
      await cliOk(['create', '--from', 'codex', '--to', 'copilot', '--summary', 'Unrelated change']);
      await seen(findHandoff('Unrelated change').handoff_id);
      assert.equal(shown.filter((m) => /came back to you/.test(m)).length, 1);
    } finally {
      win.showInformationMessage = original;
    }
  });

  it('a chain across groups: the returned work is under its parent (awaiting my review) and in Assigned to me', async () => {
    const parent = findHandoff('Profile the parser');
    const back = readHandoffs().find((h) => h.parent_uid === parent.uid)!;
    const a = await api();
    const parents = await nodesOf(parent.handoff_id);
    const review = parents.find((n) => n.parent?.kind === 'group' && n.parent.group === 'review');
    assert.ok(review, `the parent is in Awaiting my review (found under ${parents.map((n) => n.parent?.id).join(', ')})`);
    const kids = a.tree.getChildren(review).filter((k): k is HandoffNode => k.kind === 'handoff');
    assert.deepEqual(
      kids.map((k) => k.handoff.handoff_id),
      [back.handoff_id],
    );
    const top = (await nodesOf(back.handoff_id)).filter((n) => n.parent?.kind === 'group');
    assert.deepEqual(
      top.map((n) => (n.parent as { group: string }).group),
      ['assigned'],
    );
  });

  it('the tooltip shows the report (decision, status, findings, issues, summary) and the chain', async () => {
    const parent = findHandoff('Profile the parser');
    const back = readHandoffs().find((h) => h.parent_uid === parent.uid)!;
    const a = await api();
    const [node] = await nodesOf(back.handoff_id);
    const tip = hoverText(a.tree, node).replace(/\\(.)/g, '$1');
    for (const part of [
      '**Result:** PROCEED (complete)',
      'Parser is 3x faster',
      '**Findings**',
      '- hot_path: tokenize',
      '**Issues**',
      '- no benchmark in CI',
      '**Chain**',
      '- agents: Human → Claude',
      `- returned from ${parent.handoff_id} (Claude, ready for review)`,
    ])
      assert.ok(tip.includes(part), `tooltip lacks ${JSON.stringify(part)}:\n${tip}`);
  });

  it('Show History from the tree: a Markdown document with the history and audit lines, re-rendered when the store changes', async () => {
    const h = findHandoff('Check the cache keys');
    const [node] = await nodesOf(h.handoff_id);
    const { result: editor } = await runWithAnswers<vscode.TextEditor>('agentsync.showHistory', [node]);
    const doc = editor.document;
    assert.equal(doc.uri.scheme, 'agentsync-history');
    assert.equal(doc.languageId, 'markdown');
    const text = doc.getText();
    assert.match(text, /## History \(3 entries, oldest first\)/);
    assert.match(text, /- .* claimHandoff by Human via vscode: queued → in progress: claimed/);
    assert.match(text, /- .* returnHandoff by Human via vscode: in progress → ready for review/);
    await cliOk(['escalate', h.handoff_id, '--agent', 'claude', '--reason', 'ownership unclear']);
    // The store change re-renders the open document (its history; the CLI appends the audit line just after).
    await waitFor('the open document re-rendered', () => doc.getText().includes('escalated by Claude: ownership unclear'));
  });

  it('audit retention: a month older than audit.retention_days is removed when the editor starts its drop zone', async () => {
    const a = await api();
    const service = a.services.all()[0];
    const config = path.join(workspaceRoot(), '.agentsync.json');
    const original = fs.readFileSync(config, 'utf8');
    const audit = path.join(workspaceRoot(), '.agentsync/audit');
    const old = new Date();
    old.setUTCDate(1);
    old.setUTCMonth(old.getUTCMonth() - 14);
    const oldFile = path.join(audit, `${old.toISOString().slice(0, 7)}.jsonl`);
    const current = path.join(audit, `${new Date().toISOString().slice(0, 7)}.jsonl`);
    try {
      a.trust.simulate(false); // the drop zone stops
      await waitFor('drop zone stopped', () => !a.dropZones.stateOf(service).running);
      fs.writeFileSync(config, JSON.stringify({ ...JSON.parse(original), audit: { retention_days: 60 } }, null, 2));
      fs.writeFileSync(oldFile, '{"ts":"old"}\n');
      a.trust.simulate(undefined); // ...and starts again
      await waitFor('the old month removed', () => !fs.existsSync(oldFile));
      assert.ok(fs.existsSync(current), 'the current month is kept');
    } finally {
      a.trust.simulate(undefined);
      fs.writeFileSync(config, original);
      fs.rmSync(oldFile, { force: true });
    }
  });
});
