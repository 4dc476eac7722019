// Commands on one handoff that do more than the generic move (moveCommands.ts): Complete asks for the report, Return
// for Revision may answer with an escalation; and Open Handoff Record. vscode/commandRegistrar.ts registers them.
import * as vscode from 'vscode';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { reportResponse } from './commandRunner';
import { askCompletionReport } from './completionReportPrompt';
import type { CommandDeps } from './commandDeps';
import { allowsVerb, resolveHandoff, type HandoffTarget } from './handoffTarget';
import { askText } from './prompts';

const MAX_REASON = 2_000;

async function dispatchFor(
  deps: CommandDeps,
  t: HandoffTarget,
  request: Record<string, unknown>,
  success: string,
): Promise<RequestResponse> {
  const response = await t.service.dispatch({ ...request, handoffId: t.handoff.handoff_id, agent: deps.me() });
  return reportResponse(response, success, deps.log);
}

/** Complete: the receiver's report (docs/contract.md §6). PROCEED sends it to review; STOP or CLARIFY puts it before a human. */
export async function complete(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'complete', allowsVerb('complete'), deps.me());
  if (!t) return undefined;
  const result = await askCompletionReport(`Complete ${t.handoff.handoff_id}`);
  const next = !result || result.decision === 'PROCEED' ? 'ready for review' : 'blocked for a human';
  return dispatchFor(deps, t, { action: 'completeHandoff', ...(result ? { result } : {}) }, `${t.handoff.handoff_id} is ${next}.`);
}

export async function returnForRevision(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'return for revision', allowsVerb('return_for_revision'), deps.me());
  if (!t) return undefined;
  const reason = await askText({
    title: `Return ${t.handoff.handoff_id} for revision`,
    prompt: 'What must change? (the owner sees this)',
    requiredMessage: 'Say what must change.',
    maxLength: MAX_REASON,
  });
  const response = await t.service.dispatch({
    action: 'transitionHandoff',
    handoffId: t.handoff.handoff_id,
    agent: deps.me(),
    to: 'in_progress',
    reason,
    expected_rev: t.handoff.rev,
  });
  const escalated = response.data?.handoff.status === 'escalated';
  return reportResponse(
    response,
    escalated
      ? `${t.handoff.handoff_id} was returned too often and is escalated now.`
      : `${t.handoff.handoff_id} went back to its owner for revision.`,
    deps.log,
  );
}

/** Opens the store (.agentsync/handoffs.json) at the record. */
export async function openRecord(deps: CommandDeps, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'open', () => true, deps.me());
  if (!t) return undefined;
  const reader = t.service.store.reader;
  const file = reader.file;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc, { preview: true });
  // VS Code may still hold an older copy of a store that another surface rewrote a moment ago (it reloads later,
  // which would move the selection): without edits of the user's, reload it from disk before selecting.
  if (!doc.isDirty && doc.getText() !== reader.text()) await vscode.commands.executeCommand('workbench.action.files.revert');
  const needle = `"handoff_id": "${t.handoff.handoff_id}"`;
  const at = doc.getText().indexOf(needle);
  const pos = at >= 0 ? doc.positionAt(at) : new vscode.Position(0, 0);
  const range = new vscode.Range(pos, pos.translate(0, at >= 0 ? needle.length : 0));
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}
