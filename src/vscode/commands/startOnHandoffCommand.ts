// Start Session on Handoff (the catalog's `start` move, also the dashboard's Start): a session for this window's agent
// on a handoff in progress that it holds. No goal: the core takes the handoff's summary (startSession).
import { displayAgent } from '../../core/domain/agentId';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import type { CommandDeps } from './commandDeps';
import { reportResponse } from './commandRunner';
import { resolveHandoff } from './handoffTarget';

export async function startOnHandoff(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const me = deps.me();
  const t = await resolveHandoff(deps.services, arg, 'start a session on', (h) => h.status === 'in_progress' && h.claimed_by === me, me);
  if (!t) return undefined;
  const response = await t.service.dispatch({ action: 'startSession', agent: me, handoffId: t.handoff.handoff_id });
  return reportResponse(response, `session started for ${displayAgent(me)} on ${t.handoff.handoff_id}.`, deps.log);
}
