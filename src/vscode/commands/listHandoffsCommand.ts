// List Handoffs: every handoff (open first, then the newest), then what can be done with the chosen one. The move
// runs its own command with the handoff as argument, so it behaves exactly as from the tree or the palette.
import * as vscode from 'vscode';
import { isTerminal, type Handoff } from '../../core/domain/handoffSchema';
import type { CommandDeps } from './commandDeps';
import { COMMAND_MOVES, PLAIN_COMMANDS } from '../manifest/commandCatalog';
import { handoffChoice, type HandoffTarget } from './handoffTarget';
import { pickOne, type Choice } from './prompts';
import type { CommandId } from '../manifest/commandIds';

/** The commands on any handoff (no move): shown after the moves. */
const ALWAYS: readonly CommandId[] = ['agentsync.showHistory', 'agentsync.openRecord'];

/** The moves the handoff offers now (the catalog's, as on its tree item), then History and Record, each with its command. */
function movesOf(h: Handoff): { label: string; value: string }[] {
  const moves = COMMAND_MOVES.filter((m) => (m.command.on ?? 'handoff') === 'handoff' && m.available(h)).map((m) => ({
    label: `$(${m.command.icon}) ${m.command.label}`,
    value: m.command.id,
  }));
  const always = ALWAYS.map((id) => PLAIN_COMMANDS.find((c) => c.id === id)!).map((c) => ({
    label: `$(${c.icon}) ${c.title}`,
    value: c.id,
  }));
  return [...moves, ...always];
}

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
  const command = await pickOne(movesOf(h), {
    title: `${h.handoff_id}: ${h.summary.slice(0, 80)}`,
    placeHolder: 'What do you want to do?',
  });
  return vscode.commands.executeCommand(command, { handoffId: h.handoff_id, folder: t.service.layout.root });
}
