// Every handoff command through vscode.commands.executeCommand, prompts answered by stubs, results read back
// from the store on disk (and the audit log: every action went through the dispatcher as surface "vscode").
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestResponse } from '../../src/core/requests/requestDispatcher';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import { api, cli, findHandoff, runWithAnswers, waitFor, recordFile, workspaceRoot } from './helpers';

const storeFile = () => recordFile('handoffs.json');

type AuditLine = { action: string; handoff_id: string | null; surface: string; to_status: string | null; refused?: boolean };
function auditLines(): AuditLine[] {
  const dir = path.join(workspaceRoot(), '.agentsync/audit');
  return fs.readdirSync(dir).flatMap((f) =>
    fs
      .readFileSync(path.join(dir, f), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditLine),
  );
}

async function nodeFor(summary: string): Promise<TreeNode> {
  const a = await api();
  for (const g of a.tree.getChildren()) {
    for (const n of a.tree.getChildren(g)) if (n.kind === 'handoff' && n.handoff.summary === summary) return n;
  }
  throw new Error(`no tree node for ${summary}`);
}

async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

describe('handoff commands', () => {
  it('Claim from the tree item (context menu): no prompt, the handoff is mine, audited as surface vscode', async () => {
    const a = await api();
    const node = await nodeFor('Review the token refresh fix');
    const { result, log } = await runWithAnswers<RequestResponse>('agentsync.claimHandoff', [node]);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(log.asked, []);
    const h = findHandoff('token refresh');
    assert.equal(h.status, 'in_progress');
    assert.equal(h.claimed_by, 'human');
    assert.match(log.info[0], /you \(human\) hold HO-\d{8}-001 now/);
    const audit = auditLines().filter((l) => l.action === 'claimHandoff' && l.handoff_id === h.handoff_id);
    assert.deepEqual(
      audit.map((l) => [l.surface, l.to_status]),
      [['vscode', 'in_progress']],
    );
    await waitFor('tree item now in progress', async () =>
      /^handoff\.in_progress(\..*)?\.can-complete\b/.test(
        a.tree.getTreeItem(await nodeFor('Review the token refresh fix')).contextValue ?? '',
      ),
    );
  });

  it('Claim of a handoff someone holds is refused with who holds it and what to do; nothing changes', async () => {
    const before = fs.readFileSync(storeFile(), 'utf8');
    const id = findHandoff('rate limiter').handoff_id;
    const { result, log } = await runWithAnswers<RequestResponse>('agentsync.claimHandoff', [id]);
    assert.equal(result.ok, false);
    assert.equal(result.reason, 'already_claimed');
    assert.equal(result.claimedBy, 'claude');
    assert.match(log.errors[0], /already claimed by claude\. Pick another handoff/);
    assert.equal(fs.readFileSync(storeFile(), 'utf8'), before);
  });

  it('Complete from the palette: pick the handoff, PROCEED, a summary → ready for review with the report', async () => {
    const id = findHandoff('token refresh').handoff_id;
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.completeHandoff',
      [],
      { pick: id },
      { pick: 'PROCEED' },
      { input: 'Fixed the race; added a test.' },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(log.asked, [
      'pick: Which handoff do you want to complete?',
      'pick: How did it go?',
      'input: What was done, for the reviewer (optional, ≤ 500 tokens)',
    ]);
    const h = findHandoff('token refresh');
    assert.equal(h.status, 'ready_for_review');
    assert.equal(h.result?.context_summary, 'Fixed the race; added a test.');
    assert.equal(h.result?.decision, 'PROCEED');
  });

  it('Return for Revision asks what must change and sends it back to the owner (prior_attempts + 1)', async () => {
    const id = findHandoff('token refresh').handoff_id;
    const { result } = await runWithAnswers<RequestResponse>('agentsync.requestRevision', [{ handoffId: id }], {
      input: 'Cover the two-tab case too',
    });
    assert.equal(result.ok, true, JSON.stringify(result));
    const h = findHandoff('token refresh');
    assert.equal(h.status, 'in_progress');
    assert.equal(h.prior_attempts, 1);
    assert.equal(h.state_history.at(-1)?.reason, 'Cover the two-tab case too');
  });

  it('Complete with STOP puts it before a human (blocked, with the reason)', async () => {
    const id = findHandoff('token refresh').handoff_id;
    const { result } = await runWithAnswers<RequestResponse>(
      'agentsync.completeHandoff',
      [id],
      { pick: 'STOP' },
      { input: 'Need the staging credentials' },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    const h = findHandoff('token refresh');
    assert.equal(h.status, 'blocked');
    assert.match(h.state_history.at(-1)?.reason ?? '', /STOP: Need the staging credentials/);
  });

  it('Approve a handoff awaiting my review', async () => {
    const node = await nodeFor('Add tests for the parser');
    const { result } = await runWithAnswers<RequestResponse>('agentsync.approveHandoff', [node]);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(findHandoff('parser').status, 'approved');
  });

  it('Escalate dismissed at its prompt changes nothing', async () => {
    const before = fs.readFileSync(storeFile(), 'utf8');
    const id = findHandoff('logging').handoff_id;
    const { result } = await runWithAnswers<{ cancelled: boolean }>('agentsync.escalateHandoff', [id], { cancel: true });
    assert.equal(result.cancelled, true);
    assert.equal(fs.readFileSync(storeFile(), 'utf8'), before);
  });

  it('Escalate with a reason: escalated, and a line in decisions.md', async () => {
    const id = findHandoff('logging').handoff_id;
    const { result } = await runWithAnswers<RequestResponse>('agentsync.escalateHandoff', [id], {
      input: 'Two teams disagree on the format',
    });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(findHandoff('logging').status, 'escalated');
    assert.match(fs.readFileSync(path.join(workspaceRoot(), 'decisions.md'), 'utf8'), new RegExp(`${id} \\| human \\|`));
  });

  it('Open Handoff Record opens handoffs.json at the record', async () => {
    const id = findHandoff('rate limiter').handoff_id;
    await runWithAnswers('agentsync.openRecord', [id]);
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.fsPath, storeFile());
    assert.equal(editor.document.getText(editor.selection), `"handoff_id": "${id}"`);
  });

  it('List Handoffs: pick one, then an action (Claim)', async () => {
    const id = findHandoff('Created from the CLI').handoff_id;
    const { result, log } = await runWithAnswers<RequestResponse>('agentsync.listHandoffs', [], { pick: id }, { pick: 'Claim' });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.match(log.asked[0], /^pick: Pick a handoff to act on it/);
    assert.equal(findHandoff('Created from the CLI').status, 'in_progress');
  });

  it('Add Handoff Note (single): summary, note, owner, target, files from open editors', async () => {
    await closeEditors();
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspaceRoot(), 'src/auth/session.ts')));
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.addHandoffNote',
      [],
      { input: 'Harden session refresh' },
      { input: 'Watch the retry path.' },
      { pick: 'single' },
      { pick: 'Codex' },
      { pick: ['src/auth/session.ts'] },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(log.asked.length, 5);
    const h = findHandoff('Harden session refresh');
    assert.deepEqual(
      [h.from_agent, h.owner_mode, h.to_agents, h.files, h.notes, h.status],
      ['human', 'single', ['codex'], ['src/auth/session.ts'], 'Watch the retry path.', 'queued'],
    );
  });

  it('Add Handoff Note (shared): exactly two agents', async () => {
    await closeEditors();
    const { result } = await runWithAnswers<RequestResponse>(
      'agentsync.addHandoffNote',
      [],
      { input: 'Pair review of the parser' },
      { input: '' },
      { pick: 'shared' },
      { pick: ['Codex', 'Copilot'] },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    const h = findHandoff('Pair review of the parser');
    assert.deepEqual([h.owner_mode, h.to_agents], ['shared', ['codex', 'copilot']]);
  });

  it('Add Handoff Note (auto): routed by capability through the core', async () => {
    const { result } = await runWithAnswers<RequestResponse>(
      'agentsync.addHandoffNote',
      [],
      { input: 'Review the retention policy wording' },
      { input: 'Legal asked for it.' },
      { pick: 'auto' },
      { pick: ['policy_review'] },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    const h = findHandoff('retention policy wording');
    assert.deepEqual([h.owner_mode, h.to_agents, h.required_capabilities], ['single', ['claude'], ['policy_review']]);
  });

  it('Add Handoff Note dismissed at the owner question writes nothing', async () => {
    const before = fs.readFileSync(storeFile(), 'utf8');
    const { result } = await runWithAnswers<{ cancelled: boolean }>(
      'agentsync.addHandoffNote',
      [],
      { input: 'Never written' },
      { input: '' },
      { cancel: true },
    );
    assert.equal(result.cancelled, true);
    assert.equal(fs.readFileSync(storeFile(), 'utf8'), before);
  });

  it('a command on an unknown id says how to find the right one', async () => {
    const { result, log } = await runWithAnswers<{ ok: boolean }>('agentsync.claimHandoff', ['HO-19990101-999']);
    assert.equal(result.ok, false);
    assert.match(log.errors[0], /No handoff HO-19990101-999\. Run "AgentSync: List Handoffs" to see the ids/);
  });
});

describe('Pass Over command', () => {
  it('passes an open handoff to another agent with return to me: chain, return_to and parent recorded by the core', async () => {
    const made = await cli(['create', '--from', 'codex', '--to', 'human', '--summary', 'Tidy the config loader']);
    assert.equal(made.code, 0, made.stderr);
    await waitFor('the new handoff in the tree', async () =>
      (await api()).services
        .all()[0]
        .view()
        .handoffs.some((h) => h.summary === 'Tidy the config loader'),
    );
    const parent = findHandoff('Tidy the config loader');
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.passOver',
      [parent.handoff_id],
      { pick: 'Claude' },
      { pick: 'code_review' },
      { input: 'Review the logging refactor' },
    );
    assert.equal(result.ok, true, JSON.stringify(result));
    const created = findHandoff('Review the logging refactor');
    assert.deepEqual(created.to_agents, ['claude']);
    assert.equal(created.return_to, 'human');
    assert.equal(created.parent_uid, parent.uid);
    assert.deepEqual(created.chain, ['codex', 'human', 'claude']);
    assert.match(log.info[0], /passed to Claude as HO-\d{8}-\d{3}; it returns to you when done/);
  });

  it('a pass back into the chain is refused with CYCLE_DETECTED naming the chain; nothing changes', async () => {
    const before = fs.readFileSync(storeFile(), 'utf8');
    const parent = findHandoff('Tidy the config loader');
    const { result, log } = await runWithAnswers<RequestResponse>(
      'agentsync.passOver',
      [parent.handoff_id],
      { pick: 'Codex' },
      { pick: 'code_review' },
      { input: 'back to where it came from' },
    );
    assert.equal(result.ok, false);
    assert.equal(result.reason, 'CYCLE_DETECTED');
    assert.equal(result.code, 'E003');
    assert.match(log.errors[0], /codex is already in the chain codex → human → codex/);
    assert.equal(fs.readFileSync(storeFile(), 'utf8'), before);
  });

  it('Snooze Handoff… asks until when, stores snoozed_until and moves the handoff out of Assigned to me', async () => {
    const a = await api();
    const h = findHandoff('Created from the CLI');
    const assigned = () => {
      const group = a.tree.getChildren().find((g) => g.kind === 'group' && g.group === 'assigned');
      return group
        ? a.tree
            .getChildren(group)
            .filter((n) => n.kind === 'handoff')
            .map((n) => (n.kind === 'handoff' ? n.handoff.handoff_id : ''))
        : [];
    };
    await waitFor('it is in Assigned to me first', () => Promise.resolve(assigned().includes(h.handoff_id)));
    const { result, log } = await runWithAnswers<RequestResponse>('agentsync.snoozeHandoff', [{ handoffId: h.handoff_id }], {
      input: '2h',
    });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.match(log.asked[0], /Until when\?/);
    const until = Date.parse(findHandoff('Created from the CLI').snoozed_until!);
    assert.ok(until > Date.now() + 3_500_000 && until <= Date.now() + 7_200_000, String(until));
    await waitFor('it left Assigned to me', () => Promise.resolve(!assigned().includes(h.handoff_id)));
  });
});
