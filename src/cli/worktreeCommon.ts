// What the `agentsync worktree` verbs share (worktreeVerb.ts, worktreeAdd.ts): real paths, the clone, refusals and
// the context of the record changes they make.
import { ActionError } from '../core/domain/errors';
import { clonePlacement } from '../core/store/handoffWorktree';
import { newUid } from '../core/domain/handoffIds';
import { refusal } from '../core/domain/responseEnvelope';
import type { ActionContext } from '../core/store/handoffMutation';
import type { CliContext } from './cliContext';
import { oneLine } from './terminalText';

export { real } from '../core/store/handoffWorktree';

/** Prints a refusal (the envelope under --json) and answers exit 1. */
export function refuse(ctx: CliContext, e: ActionError): number {
  if (ctx.json) ctx.io.out(JSON.stringify(refusal('worktree', e.reason, e.message, {}, e.details)));
  else ctx.io.err(`agentsync: ${e.reason}: ${oneLine(e.message)}`);
  return 1;
}

/** The clone the workspace is in; a refusal outside git, where there are no worktrees. */
export function placementOf(ctx: CliContext): NonNullable<CliContext['layout']['placement']> {
  return clonePlacement(ctx.layout);
}

/** The record's changes made by this verb: a person at the CLI acts (the audit says which verb). */
export function cliContext(action: string): ActionContext {
  return { action, agent: 'human', requestId: `cli-${newUid()}`, surface: 'cli' };
}
