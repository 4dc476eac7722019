// Commands on one handoff: claim, complete, approve, return for revision, escalate, open its record, and the
// List Handoffs quick pick. Each builds a request and sends it through the folder's one dispatcher.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { isTerminal, type CompletionResult } from '../core/domain/handoffSchema';
import type { RequestResponse } from '../core/requests/requestDispatcher';
import { reportResponse, registerCommand } from './commandRunner';
import type { FolderServices } from './folderServices';
import { allowsEscalate, allowsVerb, handoffChoice, resolveHandoff, type HandoffTarget } from './handoffTarget';
import { askText, pickOne, type Choice } from './prompts';
import { passOverCommand } from './passOverCommand';
import { CLEAR_CONFLICTS_COMMAND, clearConflictsCommand } from './clearConflictsCommand';

export interface CommandDeps {
  services: FolderServices;
  log: vscode.LogOutputChannel;
  me: () => string;
}

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

export async function claim(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'claim', allowsVerb('claim'), deps.me());
  if (!t) return undefined;
  return dispatchFor(deps, t, { action: 'claimHandoff' }, `you (${deps.me()}) hold ${t.handoff.handoff_id} now.`);
}

/** Complete: the receiver's report (docs/contract.md §6). PROCEED sends it to review; STOP or CLARIFY puts it before a human. */
export async function complete(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'complete', allowsVerb('complete'), deps.me());
  if (!t) return undefined;
  const title = `Complete ${t.handoff.handoff_id}`;
  const decision = await pickOne<CompletionResult['decision']>(
    [
      { label: '$(check) PROCEED', description: 'done: send it for review', value: 'PROCEED' },
      { label: '$(debug-stop) STOP', description: 'cannot go on: block it for a human', value: 'STOP' },
      { label: '$(question) CLARIFY', description: 'needs an answer first: block it for a human', value: 'CLARIFY' },
    ],
    { title, placeHolder: 'How did it go?' },
  );
  const summary = await askText({
    title,
    prompt:
      decision === 'PROCEED'
        ? 'What was done, for the reviewer (optional, ≤ 500 tokens)'
        : 'What is in the way, for the human who picks it up',
    requiredMessage: decision === 'PROCEED' ? undefined : 'Say what is needed, so a human can act on it.',
    maxLength: 2_000,
  });
  const result: CompletionResult | undefined =
    decision === 'PROCEED' && !summary
      ? undefined
      : {
          status: decision === 'PROCEED' ? 'complete' : 'blocked',
          decision,
          findings: {},
          context_summary: summary,
          issues: decision === 'PROCEED' ? [] : [summary],
        };
  const next = decision === 'PROCEED' ? 'ready for review' : 'blocked for a human';
  return dispatchFor(deps, t, { action: 'completeHandoff', ...(result ? { result } : {}) }, `${t.handoff.handoff_id} is ${next}.`);
}

export async function approve(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'approve', allowsVerb('approve'), deps.me());
  if (!t) return undefined;
  // expected_rev: approve what was reviewed; a change since then is refused with stale_revision.
  return dispatchFor(
    deps,
    t,
    { action: 'transitionHandoff', to: 'approved', expected_rev: t.handoff.rev },
    `${t.handoff.handoff_id} is approved.`,
  );
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
  const escalated = (response.data?.handoff as { status?: string } | undefined)?.status === 'escalated';
  return reportResponse(
    response,
    escalated
      ? `${t.handoff.handoff_id} was returned too often and is escalated now.`
      : `${t.handoff.handoff_id} went back to its owner for revision.`,
    deps.log,
  );
}

export async function escalate(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'escalate', allowsEscalate, deps.me());
  if (!t) return undefined;
  const reason = await askText({
    title: `Escalate ${t.handoff.handoff_id}`,
    prompt: 'Why escalate? (recorded in the history and decisions.md)',
    requiredMessage: 'Give a reason.',
    maxLength: MAX_REASON,
  });
  return dispatchFor(deps, t, { action: 'transitionHandoff', to: 'escalated', reason }, `${t.handoff.handoff_id} is escalated.`);
}

/** Opens .agentsync/handoffs.json at the record. */
export async function openRecord(deps: CommandDeps, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'open', () => true, deps.me());
  if (!t) return undefined;
  const file = t.service.layout.handoffsFile;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const editor = await vscode.window.showTextDocument(doc, { preview: true });
  // VS Code may still hold an older copy of a store that another surface rewrote a moment ago (it reloads later,
  // which would move the selection): without edits of the user's, reload it from disk before selecting.
  if (!doc.isDirty && doc.getText() !== readText(file)) await vscode.commands.executeCommand('workbench.action.files.revert');
  const needle = `"handoff_id": "${t.handoff.handoff_id}"`;
  const at = doc.getText().indexOf(needle);
  const pos = at >= 0 ? doc.positionAt(at) : new vscode.Position(0, 0);
  const range = new vscode.Range(pos, pos.translate(0, at >= 0 ? needle.length : 0));
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

type Move = 'claim' | 'complete' | 'approve' | 'return' | 'escalate' | 'open';

/** List Handoffs: every handoff (open first), then what can be done with the chosen one. */
export async function list(deps: CommandDeps): Promise<unknown> {
  const multi = deps.services.all().length > 1;
  const choices: Choice<HandoffTarget>[] = [];
  for (const service of deps.services.all()) {
    if (!service.isInitialized()) continue;
    const sorted = [...service.view().handoffs].sort(
      (a, b) => Number(isTerminal(a.status)) - Number(isTerminal(b.status)) || b.updated_at.localeCompare(a.updated_at),
    );
    for (const h of sorted) choices.push(handoffChoice(h, { service, handoff: h }, multi ? service.name : undefined));
  }
  if (choices.length === 0) {
    void vscode.window.showInformationMessage('AgentSync: no handoffs yet. "AgentSync: Add Handoff Note" creates one.');
    return undefined;
  }
  const t = await pickOne(choices, {
    title: `AgentSync: ${choices.length} handoff${choices.length === 1 ? '' : 's'}`,
    placeHolder: 'Pick a handoff to act on it',
  });
  const h = t.handoff;
  const moves: Choice<Move>[] = [];
  if (allowsVerb('claim')(h)) moves.push({ label: '$(arrow-circle-down) Claim', value: 'claim' });
  if (allowsVerb('complete')(h)) moves.push({ label: '$(check) Complete', value: 'complete' });
  if (allowsVerb('approve')(h)) moves.push({ label: '$(pass) Approve', value: 'approve' });
  if (allowsVerb('return_for_revision')(h)) moves.push({ label: '$(reply) Return for Revision', value: 'return' });
  if (allowsEscalate(h)) moves.push({ label: '$(flame) Escalate', value: 'escalate' });
  moves.push({ label: '$(go-to-file) Open Record', value: 'open' });
  const move = await pickOne(moves, { title: `${h.handoff_id}: ${h.summary.slice(0, 80)}`, placeHolder: 'What do you want to do?' });
  const ref = { handoffId: h.handoff_id, folder: t.service.layout.root };
  const run = { claim, complete, approve, return: returnForRevision, escalate, open: openRecord }[move];
  return run(deps, ref);
}

export function registerHandoffCommands(deps: CommandDeps): vscode.Disposable[] {
  const r = (id: string, fn: (deps: CommandDeps, arg?: unknown) => Promise<unknown>) =>
    registerCommand(id, deps.log, (arg) => fn(deps, arg));
  return [
    r('agentsync.claimHandoff', claim),
    r('agentsync.completeHandoff', complete),
    r('agentsync.approveHandoff', approve),
    r('agentsync.returnHandoff', returnForRevision),
    r('agentsync.escalateHandoff', escalate),
    r('agentsync.openRecord', openRecord),
    r('agentsync.listHandoffs', list),
    r('agentsync.passOver', passOverCommand),
    r(CLEAR_CONFLICTS_COMMAND, clearConflictsCommand),
  ];
}
