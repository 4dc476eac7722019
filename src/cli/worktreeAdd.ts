// `agentsync worktree add <path> --handoff <id> [--agent <a>]` (docs/contract.md §14 item 5): the core
// (core/store/handoffWorktree.ts, shared with the editor's "Open in New Worktree") makes and binds the worktree; this
// file prints what was made.
import { addHandoffWorktree } from '../core/store/handoffWorktree';
import { okResponse } from '../core/domain/responseEnvelope';
import type { CliContext } from './cliContext';
import { cliContext } from './worktreeCommon';

export async function addWorktreeFor(ctx: CliContext, rawPath: string, ref: string, agentFlag: string | undefined): Promise<number> {
  const made = await addHandoffWorktree(ctx.dispatcher.store, ctx.layout, rawPath, ref, agentFlag, cliContext('bindWorktree'));
  const { handoff, worktree, start, notice } = made;
  if (notice && !ctx.json) ctx.io.err(`agentsync: ${notice}`);
  if (ctx.json) ctx.io.out(JSON.stringify(okResponse('worktree', { handoff, worktree, start, ...(notice ? { notice } : {}) })));
  else
    ctx.io.out(
      `created worktree ${worktree.name} at ${worktree.path} on branch ${worktree.branch} (from ${worktree.commit.slice(0, 12)}) ` +
        `for ${handoff.handoff_id}\nstart the agent there:\n  ${start}`,
    );
  return 0;
}
