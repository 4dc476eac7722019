// Every request action: its parameter schema and the core function it runs inside the store transaction.
import { claimHandoff } from './actions/claimHandoff';
import { clearConflicts } from './actions/clearConflicts';
import { completeHandoff } from './actions/completeHandoff';
import { createHandoff } from './actions/createHandoff';
import { listHandoffs } from './actions/listHandoffs';
import { transitionHandoff } from './actions/transitionHandoff';
import { heartbeat, updateTodos } from './actions/updateHandoffFields';
import { passOver } from './actions/passOver';
import { expireLeases } from './actions/expireLeases';
import { returnHandoff } from './actions/returnHandoff';
import { assignHandoff } from './actions/assignHandoff';
import { handoffRefOf, paramSchemas, type ActionName, type ParamsOf } from './requestParams';
import { endSession, healthResult, prepareEndSession, prepareHealth, startSession } from './sessions/sessionActions';
import type { SessionEnv } from './sessions/sessionEnv';
import { sessionStatus } from './sessions/sessionStatus';
import type { ActionContext } from '../store/handoffMutation';
import type { StoreTransaction } from '../store/storeTransaction';

export interface ActionSpec<A extends ActionName> {
  readOnly: boolean;
  /** Sweeps timed-out passes itself and answers with them, so the dispatcher's sweep before it is skipped. */
  sweepsTimeouts?: true;
  /** Slow I/O (git, health checks) done BEFORE the store lock is taken; its result is passed to run. */
  prepare?(env: ActionEnv, params: ParamsOf<A>): Promise<unknown>;
  run(tx: StoreTransaction, ctx: ActionContext, params: ParamsOf<A>, prepared?: unknown): object;
}

/** What prepare may use: the workspace and its configuration. */
export type ActionEnv = SessionEnv;

const envOnly = (env: ActionEnv): Promise<ActionEnv> => Promise.resolve(env);

type Registry = { [A in ActionName]: ActionSpec<A> };

export const ACTIONS: Registry = {
  createHandoff: { readOnly: false, run: (tx, ctx, p) => createHandoff(tx, ctx, p) },
  listHandoffs: { readOnly: true, run: (tx, _ctx, p) => listHandoffs(tx, p) },
  claimHandoff: {
    readOnly: false,
    run: (tx, ctx, p) => claimHandoff(tx, ctx, { ref: handoffRefOf(p), expected_rev: p.expected_rev }),
  },
  transitionHandoff: {
    readOnly: false,
    run: (tx, ctx, p) => transitionHandoff(tx, ctx, { ref: handoffRefOf(p), to: p.to, reason: p.reason, expected_rev: p.expected_rev }),
  },
  completeHandoff: {
    readOnly: false,
    run: (tx, ctx, p) => completeHandoff(tx, ctx, { ref: handoffRefOf(p), result: p.result, expected_rev: p.expected_rev }),
  },
  passOver: {
    readOnly: false,
    run: (tx, ctx, p) => passOver(tx, ctx, { ...p, handoffId: p.handoffId ?? p.handoff_id }),
  },
  returnHandoff: {
    readOnly: false,
    run: (tx, ctx, p) =>
      returnHandoff(tx, ctx, { ref: handoffRefOf(p), result: p.result, message: p.message, expected_rev: p.expected_rev }),
  },
  assignHandoff: {
    readOnly: false,
    run: (tx, ctx, p) =>
      assignHandoff(tx, ctx, { ref: handoffRefOf(p), to_agents: p.to_agents, reason: p.reason, expected_rev: p.expected_rev }),
  },
  expireLeases: { readOnly: false, sweepsTimeouts: true, run: (tx, ctx) => expireLeases(tx, ctx) },
  heartbeat: { readOnly: false, run: (tx, ctx, p) => heartbeat(tx, ctx, { ref: handoffRefOf(p) }) },
  clearConflicts: {
    readOnly: false,
    run: (tx, ctx, p) => clearConflicts(tx, ctx, { ref: handoffRefOf(p), expected_rev: p.expected_rev }),
  },
  updateTodos: {
    readOnly: false,
    run: (tx, ctx, p) => updateTodos(tx, ctx, { ref: handoffRefOf(p), todos: p.todos, expected_rev: p.expected_rev }),
  },
  startSession: {
    readOnly: false,
    prepare: envOnly,
    run: (tx, ctx, p, env) => startSession(tx, ctx, p, env as ActionEnv),
  },
  endSession: {
    readOnly: false,
    prepare: prepareEndSession,
    run: (tx, ctx, p, prep) => endSession(tx, ctx, p, prep as Awaited<ReturnType<typeof prepareEndSession>>),
  },
  status: { readOnly: true, prepare: envOnly, run: (tx, ctx, _p, env) => sessionStatus(tx, ctx, env as ActionEnv) },
  health: {
    readOnly: true,
    prepare: prepareHealth,
    run: (_tx, _ctx, _p, report) => healthResult(report as Awaited<ReturnType<typeof prepareHealth>>),
  },
};

export const ACTION_NAMES = Object.keys(ACTIONS) as ActionName[];

export function isActionName(name: string): name is ActionName {
  return Object.prototype.hasOwnProperty.call(ACTIONS, name);
}

export { paramSchemas };
