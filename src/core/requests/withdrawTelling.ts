// The receiver of a withdrawn pass is told in the answer of its next request, whatever the request (docs/contract.md
// §6, "Withdraw"): `data.withdrawn`, once per agent and session (hooks/withdrawNotices.ts keeps what was told).
import type { Handoff } from '../domain/handoffSchema';
import type { ActionContext } from '../store/handoffMutation';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import { takeUntold, withdrawalsFor, withdrawNoticeFile } from '../hooks/withdrawNotices';

export function tellWithdrawals(
  handoffs: readonly Handoff[],
  data: Record<string, unknown> | undefined,
  ctx: ActionContext,
  layout: Pick<WorkspaceLayout, 'recordDir' | 'recordBase'>,
): Record<string, unknown> | undefined {
  if (!ctx.agent) return data;
  const mine = withdrawalsFor(handoffs, ctx.agent, ctx.session ?? null);
  if (mine.length === 0) return data;
  const file = withdrawNoticeFile(layout.recordDir, ctx.agent, ctx.session?.id ?? null);
  const untold = takeUntold(mine, layout.recordBase, file);
  return untold.length ? { ...data, withdrawn: untold } : data;
}
