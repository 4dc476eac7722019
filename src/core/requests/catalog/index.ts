// The action catalog (docs/architecture.md, "The action catalog"): every request action, each defined once in its own
// file. The dispatcher, the MCP and Copilot tools, the CLI's move verbs, the editor's commands, menus and tree flags,
// List Handoffs and package.json are derived from it.
import type * as z from 'zod';
import type { Handoff } from '../../domain/handoffSchema';
import type { ActionDefinition, MoveDefinition } from './actionDefinition';
import { assignHandoff } from './assignHandoff';
import { claimHandoff } from './claimHandoff';
import { clearConflicts } from './clearConflicts';
import { completeHandoff } from './completeHandoff';
import { createHandoff } from './createHandoff';
import { expireLeases } from './expireLeases';
import { heartbeat } from './heartbeat';
import { listHandoffs } from './listHandoffs';
import { passOver } from './passOver';
import { returnHandoff } from './returnHandoff';
import { reviewFiles } from './reviewFiles';
import { endSession, health, startSession, status } from './sessions';
import { snoozeHandoff } from './snoozeHandoff';
import { transitionHandoff } from './transitionHandoff';
import { updateTodos } from './updateTodos';
import { withdrawPass } from './withdrawPass';
import { byCodeUnit } from '../../domain/textOrder';

/** In this order: the MCP tool list, the "Actions:" of a refusal, the docs' tables. */
export const CATALOG = {
  createHandoff,
  listHandoffs,
  claimHandoff,
  transitionHandoff,
  completeHandoff,
  passOver,
  returnHandoff,
  withdrawPass,
  reviewFiles,
  assignHandoff,
  expireLeases,
  heartbeat,
  clearConflicts,
  updateTodos,
  snoozeHandoff,
  startSession,
  endSession,
  status,
  health,
} as const;

type Catalog = typeof CATALOG;
export type ActionName = keyof Catalog;
/** An action's parameters as the dispatcher passes them to it (parsed). */
export type ParamsOf<A extends ActionName> = z.output<ReturnType<Catalog[A]['params']>>;

/** What the dispatcher adds to an answer in sync mode (docs/contract.md §13). */
export interface SyncExtras {
  sync?: Record<string, unknown>;
  sync_revoked?: unknown[];
}
/** The `data` of an action's successful answer. */
export type ResultOf<A extends ActionName> = ReturnType<Catalog[A]['run']> & SyncExtras;

export const ACTION_NAMES = Object.keys(CATALOG) as ActionName[];

export function isActionName(name: string): name is ActionName {
  return Object.prototype.hasOwnProperty.call(CATALOG, name);
}

/** The entry of an action, typed loosely enough for code that handles every action alike (the dispatcher). */
export function actionOf(name: ActionName): ActionDefinition<z.ZodType, object, unknown> {
  return CATALOG[name];
}

/** The action's parameter schema: built now if this is its first use. */
export function paramsSchemaOf(name: ActionName): z.ZodType {
  return actionOf(name).params();
}

/** A move with the action it sends. */
export interface CatalogMove extends MoveDefinition {
  action: ActionName;
}

/** Every move, in the order of the editor's menus (by menu group); the CLI-only ones (no group) first. */
export const MOVES: readonly CatalogMove[] = ACTION_NAMES.flatMap((action) =>
  (actionOf(action).moves ?? []).map((m) => ({ ...m, action })),
).sort((a, b) => byCodeUnit(a.command?.group ?? '', b.command?.group ?? ''));

export function moveNamed(name: string): CatalogMove | undefined {
  return MOVES.find((m) => m.name === name || m.cli?.verb === name || m.cli?.aliases?.includes(name));
}

/** The moves a handoff offers now (the tree's can- flags, List Handoffs, the dashboard). */
export function movesFor(h: Handoff): CatalogMove[] {
  return MOVES.filter((m) => m.available(h));
}
