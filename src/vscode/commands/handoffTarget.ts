// Which handoff a command acts on: the tree node it was invoked on, an id passed by a caller
// (`{ handoffId, folder? }` or a plain id), or one the user picks from those the move applies to.
import * as vscode from 'vscode';
import { displayAgent } from '../../core/domain/agentId';
import { isTerminal, type Handoff } from '../../core/domain/handoffSchema';
import { allowsMove } from '../../core/domain/lifecycle';
import type { FolderService } from '../folders/folderService';
import type { FolderServices } from '../folders/folderServices';
import { pickOne, type Choice } from './prompts';
import { STATUS_ICONS, statusLabel } from '../tree/statusIcons';

export interface HandoffTarget {
  service: FolderService;
  handoff: Handoff;
}

/** Handoffs a lifecycle move (by its verb in the core's TRANSITIONS table) can start from. */
export function allowsVerb(verb: string): (h: Handoff) => boolean {
  return (h) => allowsMove(h.status, verb);
}

export function handoffChoice<T>(h: Handoff, value: T, folder?: string): Choice<T> {
  return {
    label: `$(${STATUS_ICONS[h.status].codicon}) ${h.handoff_id}`,
    description: `${statusLabel(h.status)} · ${h.summary.split('\n')[0].slice(0, 120)}`,
    detail: `${displayAgent(h.from_agent)} → ${h.to_agents.map(displayAgent).join(', ') || '(unassigned)'}${folder ? ` · ${folder}` : ''}`,
    value,
  };
}

function fromArgument(services: FolderServices, arg: unknown): HandoffTarget | undefined {
  if (!arg) return undefined;
  if (typeof arg === 'object' && (arg as { kind?: string }).kind === 'handoff') {
    const node = arg as { service: FolderService; handoff: Handoff };
    // Re-read: the node may be older than the last store change.
    return { service: node.service, handoff: node.service.find(node.handoff.uid ?? node.handoff.handoff_id) ?? node.handoff };
  }
  const ref = typeof arg === 'string' ? { handoffId: arg } : (arg as { handoffId?: string; folder?: string });
  if (!ref.handoffId) return undefined;
  const candidates = ref.folder ? [services.get(ref.folder)].filter((s): s is FolderService => !!s) : services.all();
  for (const service of candidates) {
    const handoff = service.find(ref.handoffId);
    if (handoff) return { service, handoff };
  }
  throw new Error(`No handoff ${ref.handoffId}${ref.folder ? ` in ${ref.folder}` : ''}. Run "AgentSync: List Handoffs" to see the ids`);
}

/**
 * Resolves the target, or asks. `eligible` narrows the pick list; `what` names the move for messages.
 * Returns undefined when nothing qualifies (the user is told why).
 */
export async function resolveHandoff(
  services: FolderServices,
  arg: unknown,
  what: string,
  eligible: (h: Handoff) => boolean,
  me: string,
): Promise<HandoffTarget | undefined> {
  const given = fromArgument(services, arg);
  if (given) return given;
  const choices: Choice<HandoffTarget>[] = [];
  const multi = services.all().length > 1;
  for (const service of services.all()) {
    if (!service.isInitialized()) continue;
    const mine = (h: Handoff) => (h.to_agents.includes(me) || h.from_agent === me ? 0 : 1);
    const list = service.view().handoffs.filter((h) => !isTerminal(h.status) && eligible(h));
    list.sort((a, b) => mine(a) - mine(b) || b.updated_at.localeCompare(a.updated_at));
    for (const h of list) choices.push(handoffChoice(h, { service, handoff: h }, multi ? service.name : undefined));
  }
  if (choices.length === 0) {
    void vscode.window.showInformationMessage(`AgentSync: no handoff to ${what} right now. "AgentSync: List Handoffs" shows them all.`);
    return undefined;
  }
  return pickOne(choices, { title: `AgentSync: ${what}`, placeHolder: `Which handoff do you want to ${what}?` });
}
