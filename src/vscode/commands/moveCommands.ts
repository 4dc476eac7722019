// The editor command of every move in the action catalog, from the catalog's list (commandCatalog.ts): a move
// with a handler of its own below runs it (a report to ask for, a pick of agents); any other asks the move's prompts,
// sends the move's request through the folder's dispatcher and reports the answer.
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { clearConflictsCommand } from './clearConflictsCommand';
import type { CommandDeps } from './commandDeps';
import { COMMAND_MOVES } from '../manifest/commandCatalog';
import { reportResponse, type CommandEntry } from './commandRunner';
import { assignCommand, returnToOriginatorCommand } from './delegationCommands';
import { complete, returnForRevision } from './handoffCommands';
import { resolveHandoff } from './handoffTarget';
import { passOverCommand } from './passOverCommand';
import { startOnHandoff } from './startOnHandoffCommand';
import { askText } from './prompts';
import { acceptFile, rejectFile } from './fileReviewCommands';
import type { CommandId } from '../manifest/commandIds';

type MoveHandler = (deps: CommandDeps, arg?: unknown) => Promise<unknown>;

/** The moves whose command does more than the generic one, by move name. */
const HANDLERS: Readonly<Record<string, MoveHandler>> = {
  complete,
  revise: returnForRevision,
  return: returnToOriginatorCommand,
  assign: assignCommand,
  pass: passOverCommand,
  clearConflicts: clearConflictsCommand,
  start: startOnHandoff,
  acceptFile,
  rejectFile,
};

type CommandMove = (typeof COMMAND_MOVES)[number];

/** The move's `done` with `{id}` and `{me}` filled in; one without `{id}` follows the id. */
function doneText(done: string, id: string, me: string): string {
  const text = done.replace(/\{me\}/g, me);
  return text.includes('{id}') ? text.replace(/\{id\}/g, id) : `${id} ${text}`;
}

/** Asks the move's prompts, then sends its request for the handoff as this window's agent, against the revision shown. */
async function genericMove(move: CommandMove, deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const what = move.command.label.replace(/…$/, '').toLowerCase();
  const t = await resolveHandoff(deps.services, arg, what, move.available, deps.me());
  if (!t) return undefined;
  const id = t.handoff.handoff_id;
  const asked: Record<string, string> = {};
  for (const p of move.command.prompts ?? []) {
    const { param, title, format, ...question } = p;
    const text = await askText({ ...question, title: title.replace('{id}', id) });
    asked[param] = format ? format(text) : text;
  }
  const response = await t.service.dispatch({
    action: move.action,
    ...move.fixed,
    ...asked,
    handoffId: id,
    agent: deps.me(),
    expected_rev: t.handoff.rev,
  });
  const done = move.command.done ? `${doneText(move.command.done, id, deps.me())}.` : `${move.command.label}: ${id} done.`;
  return reportResponse(response, done, deps.log);
}

/** The handler of every move's command, by command id (registered by vscode/commandRegistrar.ts). */
export function moveCommandHandlers(deps: CommandDeps): CommandEntry[] {
  return COMMAND_MOVES.map((move) => {
    const handler = HANDLERS[move.name];
    // The catalog is where the CommandId type is generated from (scripts/manifest/contributes.ts).
    return [move.command.id as CommandId, (arg) => (handler ? handler(deps, arg) : genericMove(move, deps, arg))];
  });
}
