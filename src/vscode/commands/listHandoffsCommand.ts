// List Handoffs: every handoff (open first, then the newest), then what can be done with the chosen one. The move
// runs its own command with the handoff as argument, so it behaves exactly as from the tree or the palette.
import * as vscode from 'vscode';
import { awaitsAssignment } from '../../core/requests/actions/assignHandoff';
import { returnsToOriginator } from '../../core/requests/actions/returnHandoff';
import { isTerminal, type Handoff } from '../../core/domain/handoffSchema';
import type { CommandDeps } from './commandDeps';
import { allowsEscalate, allowsVerb, handoffChoice, type HandoffTarget } from './handoffTarget';
import { pickOne, type Choice } from './prompts';

/** The moves offered for a handoff, in this order, each with the command it runs. */
const MOVES: { label: string; command: string; applies: (h: Handoff) => boolean }[] = [
  { label: '$(arrow-circle-down) Claim', command: 'agentsync.claimHandoff', applies: allowsVerb('claim') },
  { label: '$(check) Complete', command: 'agentsync.completeHandoff', applies: allowsVerb('complete') },
  { label: '$(arrow-left) Return to Originator', command: 'agentsync.returnToOriginator', applies: returnsToOriginator },
  { label: '$(pass) Approve', command: 'agentsync.approveHandoff', applies: allowsVerb('approve') },
  { label: '$(reply) Return for Revision', command: 'agentsync.requestRevision', applies: allowsVerb('return_for_revision') },
  { label: '$(person-add) Assign', command: 'agentsync.assignHandoff', applies: awaitsAssignment },
  { label: '$(flame) Escalate', command: 'agentsync.escalateHandoff', applies: allowsEscalate },
  { label: '$(history) Show History', command: 'agentsync.showHistory', applies: () => true },
  { label: '$(go-to-file) Open Record', command: 'agentsync.openRecord', applies: () => true },
];

export async function listHandoffs(deps: CommandDeps): Promise<unknown> {
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
  const moves = MOVES.filter((m) => m.applies(h)).map((m) => ({ label: m.label, value: m.command }));
  const command = await pickOne(moves, { title: `${h.handoff_id}: ${h.summary.slice(0, 80)}`, placeHolder: 'What do you want to do?' });
  return vscode.commands.executeCommand(command, { handoffId: h.handoff_id, folder: t.service.layout.root });
}
