// Clear Merge Conflicts (docs/contract.md §3 `conflicts`): on a conflict node (or a handoff), a human confirms what the merge
// chose. The rule (humans only, audited) is the core's clearConflicts action; an agent identity is refused there.
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { reportResponse } from './commandRunner';
import type { CommandDeps } from './commandDeps';
import { resolveHandoff } from './handoffTarget';
import type { CommandId } from '../manifest/commandIds';

export const CLEAR_CONFLICTS_COMMAND: CommandId = 'agentsync.clearConflicts';

export async function clearConflictsCommand(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  // A conflict node stands for its handoff.
  const node = arg as { kind?: string; handoff?: { handoff_id: string }; service?: { layout: { root: string } } } | undefined;
  const target =
    node?.kind === 'conflict' && node.handoff && node.service
      ? { handoffId: node.handoff.handoff_id, folder: node.service.layout.root }
      : arg;
  const t = await resolveHandoff(deps.services, target, 'clear the merge conflicts of', (h) => (h.conflicts?.length ?? 0) > 0, deps.me());
  if (!t) return undefined;
  const response = await t.service.dispatch({
    action: 'clearConflicts',
    handoffId: t.handoff.handoff_id,
    agent: deps.me(),
    expected_rev: t.handoff.rev,
  });
  return reportResponse(response, `the merge conflicts of ${t.handoff.handoff_id} are cleared.`, deps.log);
}
