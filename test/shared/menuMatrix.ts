// The one menu matrix of the unit test (test/unit/vscode/manifest/manifest.test.ts, package.json as generated) and the editor test
// (test/integration/activation.test.ts, package.json as VS Code loaded it): for a handoff in each status, which
// commands its context menu shows, by evaluating package.json's `when` clauses (the one evaluator,
// src/vscode/manifest/whenClause.ts) against the item's contextValue, and which the catalog says it offers.
// Expected names come from the catalog, so a new move changes no test here.
import { MOVES } from '../../src/core/requests/catalog';
import { isTerminal, type Handoff } from '../../src/core/domain/handoffSchema';
import { handoffContextValue, PLAIN_COMMANDS } from '../../src/vscode/manifest/commandCatalog';
import { whenHolds } from '../../src/vscode/manifest/whenClause';
import { handoffIn } from '../unit/helpers/handoffFixtures';

export interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

/** Handoffs in every status, and the states that change what they offer (an originator to return to, no owner, a snooze). */
export const MENU_CASES: readonly { name: string; handoff: Handoff }[] = [
  { name: 'queued', handoff: handoffIn('queued') },
  { name: 'queued, snoozed', handoff: handoffIn('queued', { snoozed_until: '2026-03-10T14:00:00.000Z' }) },
  { name: 'in progress', handoff: handoffIn('in_progress') },
  { name: 'in progress, passed to me', handoff: handoffIn('in_progress', { return_to: 'codex' }) },
  { name: 'blocked', handoff: handoffIn('blocked') },
  { name: 'blocked, nobody to route to', handoff: handoffIn('blocked', { to_agents: [], no_handoff_reason: null }) },
  { name: 'ready for review', handoff: handoffIn('ready_for_review') },
  { name: 'approved', handoff: handoffIn('approved') },
  { name: 'merged', handoff: handoffIn('merged') },
  { name: 'escalated', handoff: handoffIn('escalated') },
];

/** The commands (ids) of view/item/context, inline buttons aside, that show on a Handoffs item with this contextValue. */
export function offeredBy(menu: readonly MenuEntry[], contextValue: string): string[] {
  const ctx = { view: 'agentsync.handoffs', viewItem: contextValue };
  const shown = menu.filter((e) => !e.group?.startsWith('inline') && (!e.when || whenHolds(e.when, ctx)));
  return [...new Set(shown.map((e) => e.command))].sort();
}

/** What the catalog says the item offers: each move available now (on a handoff item), and the commands of every item. */
export function catalogOffers(h: Handoff): string[] {
  const moves = MOVES.filter((m) => m.command && (m.command.on ?? 'handoff') === 'handoff' && m.available(h)).map((m) => m.command!.id);
  // Open Record and Show History on every handoff; Open in New Worktree only on unfinished work.
  const always = PLAIN_COMMANDS.filter((c) => c.onHandoff && (!c.onHandoff.unfinished || !isTerminal(h.status))).map((c) => c.id);
  return [...new Set([...moves, ...always])].sort();
}

/** The command id of the move of that name (`claim` → `agentsync.claimHandoff`). */
export function commandOf(move: string): string {
  const id = MOVES.find((m) => m.name === move)?.command?.id;
  if (!id) throw new Error(`no move named ${move} with a command`);
  return id;
}

export { handoffContextValue };
