// Delegation moves that only the editor's prompts add to the core's actions (docs/agentsync-documentation.md,
// "Commands"): Assign a handoff that routing could not give to anyone, and Return to Originator for passed-over work.
import { awaitsAssignment } from '../../core/requests/actions/assignHandoff';
import { returnsToOriginator } from '../../core/requests/actions/returnHandoff';
import { displayAgent } from '../../core/domain/agentId';
import type { CompletionResult } from '../../core/domain/handoffSchema';
import type { RequestResponse } from '../../core/requests/requestDispatcher';
import { reportResponse } from './commandRunner';
import type { CommandDeps } from './commandDeps';
import { askAgents } from './handoffNoteFlow';
import { resolveHandoff } from './handoffTarget';
import { askText } from './prompts';

/** Assign: a blocked handoff nobody could be routed to goes to the agent picked (a human's move; the core checks). */
export async function assignCommand(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'assign', awaitsAssignment, deps.me());
  if (!t) return undefined;
  const h = t.handoff;
  const needs = h.required_capabilities.length ? ` (needs ${h.required_capabilities.join(', ')})` : '';
  const [to] = await askAgents(t.service, deps.me(), 1, `Assign ${h.handoff_id}${needs}`);
  const response = await t.service.dispatch({
    action: 'assignHandoff',
    handoffId: h.handoff_id,
    agent: deps.me(),
    to_agents: [to],
    expected_rev: h.rev,
  });
  return reportResponse(response, `${h.handoff_id} is assigned to ${displayAgent(to)} and queued.`, deps.log);
}

/** Return to Originator: the holder of passed-over work sends its result back to `return_to` (action returnHandoff). */
export async function returnToOriginatorCommand(deps: CommandDeps, arg?: unknown): Promise<RequestResponse | undefined> {
  const t = await resolveHandoff(deps.services, arg, 'return to its originator', returnsToOriginator, deps.me());
  if (!t) return undefined;
  const h = t.handoff;
  const origin = displayAgent(h.return_to ?? h.from_agent);
  const title = `Return ${h.handoff_id} to ${origin}`;
  const summary = await askText({
    title,
    prompt: `What was done and found, for ${origin} (≤ 500 tokens)`,
    requiredMessage: `Say what ${origin} gets back.`,
    maxLength: 2_000,
  });
  const issues = await askText({
    title,
    prompt: `Issues ${origin} should know about (optional; separate them with ";")`,
    maxLength: 2_000,
  });
  const list = issues
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  const result: CompletionResult = { status: 'complete', decision: 'PROCEED', findings: {}, context_summary: summary, issues: list };
  const response = await t.service.dispatch({
    action: 'returnHandoff',
    handoffId: h.handoff_id,
    agent: deps.me(),
    result,
    expected_rev: h.rev,
  });
  const returned = response.data?.returned;
  return reportResponse(response, `${h.handoff_id} went back to ${origin} as ${returned?.handoff_id ?? 'a new handoff'}.`, deps.log);
}
