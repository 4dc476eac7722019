// What the `agentsync worktree` verbs share (worktreeVerb.ts, worktreeAdd.ts): real paths, the clone, refusals and
// the context of the record changes they make.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from '../core/domain/errors';
import { newUid } from '../core/domain/handoffIds';
import { refusal } from '../core/domain/responseEnvelope';
import type { ActionContext } from '../core/store/handoffMutation';
import type { CliContext } from './cliContext';
import { oneLine } from './terminalText';

export function real(p: string): string {
  try {
    return fs.realpathSync.native(path.resolve(p));
  } catch {
    return path.resolve(p);
  }
}

/** Prints a refusal (the envelope under --json) and answers exit 1. */
export function refuse(ctx: CliContext, e: ActionError): number {
  if (ctx.json) ctx.io.out(JSON.stringify(refusal('worktree', e.reason, e.message, {}, e.details)));
  else ctx.io.err(`agentsync: ${e.reason}: ${oneLine(e.message)}`);
  return 1;
}

/** The clone the workspace is in; a refusal outside git, where there are no worktrees. */
export function placementOf(ctx: CliContext): NonNullable<CliContext['layout']['placement']> {
  const placement = ctx.layout.placement;
  if (!placement)
    throw new ActionError('invalid_request', `${ctx.layout.root} is not in a git clone, so it has no worktrees; nothing was changed.`);
  return placement;
}

/** The record's changes made by this verb: a person at the CLI acts (the audit says which verb). */
export function cliContext(action: string): ActionContext {
  return { action, agent: 'human', requestId: `cli-${newUid()}`, surface: 'cli' };
}
