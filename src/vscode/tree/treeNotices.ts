// The info lines above a folder's groups in the Handoffs tree: what is off or broken (Restricted Mode, a bad
// agentsync.agentId, a store or config problem), each with the click that fixes it.
import type { FolderService } from '../folders/folderService';
import { syncStatusLine } from '../../core/store/backgroundSync';
import type { InfoNode, TreeContext, TreeNode } from './treeNodeTypes';

export const RESTRICTED_MODE_MESSAGE = 'Restricted Mode: the drop zone and health checks are off';
export const RESTRICTED_MODE_DETAIL =
  'This folder is not trusted, so AgentSync does not answer requests that agents drop into .agentsync/ and does not run build/test health ' +
  'checks. The tree and commands still work. Trust the folder (Manage Workspace Trust) to turn them on.';

/** Info lines shown above a folder's groups: why something is off or broken, and what to do. */
export function notices(
  service: FolderService,
  ctx: TreeContext,
  parent: TreeNode | undefined,
  problem: string | null,
  checking = false,
): InfoNode[] {
  const base = parent ? parent.id : service.layout.root;
  const out: InfoNode[] = [];
  if (checking) {
    out.push({
      kind: 'info',
      id: `${base}|checking`,
      service,
      parent,
      tone: 'info',
      message: 'Checking .agentsync/handoffs.json…',
      detail: 'A large store read for the first time is checked record by record before it is shown; the groups follow in a moment.',
    });
  }
  if (!ctx.trusted) {
    out.push({
      kind: 'info',
      id: `${base}|restricted`,
      service,
      parent,
      tone: 'warning',
      message: RESTRICTED_MODE_MESSAGE,
      detail: RESTRICTED_MODE_DETAIL,
      command: { command: 'workbench.trust.manage', title: 'Manage Workspace Trust' },
    });
  }
  if (ctx.identityProblem) {
    out.push({
      kind: 'info',
      id: `${base}|identity`,
      service,
      parent,
      tone: 'error',
      message: 'agentsync.agentId is not a valid agent id',
      detail: ctx.identityProblem,
      command: { command: 'workbench.action.openSettings', title: 'Open Settings', arguments: ['agentsync.agentId'] },
    });
  }
  const sync = service.syncStatus();
  if (sync) {
    const line = syncStatusLine(sync);
    out.push({ kind: 'info', id: `${base}|sync`, service, parent, tone: line.tone, message: line.message, detail: line.detail });
  }
  if (problem) {
    out.push({
      kind: 'info',
      id: `${base}|problem`,
      service,
      parent,
      tone: 'error',
      message: problem.split(/(?<=\.)\s/)[0],
      detail: problem,
    });
  }
  return out;
}
