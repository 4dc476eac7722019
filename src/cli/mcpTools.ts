// The MCP tool list: one tool per core action (docs/contract.md §1, §8). The tool name is the action name and the input
// schema is the action's own zod parameter schema, so an MCP caller sees exactly what the dispatcher accepts.
import { ACTION_NAMES } from '../core/requests/actionRegistry';
import { actionInputSchema } from '../core/requests/actionInputSchema';
import { withFullFlag } from '../core/requests/agentAnswers';
import type { ActionName } from '../core/requests/requestParams';

/** What each action does, for the agent choosing a tool. Every call answers with the response envelope of docs/contract.md §8. */
const DESCRIPTIONS: Record<ActionName, string> = {
  createHandoff:
    'Create a handoff: work one agent leaves for another. `handoff` holds from_agent, owner_mode (single: one to_agents entry; shared: several; ' +
    'auto: routed by required_capabilities), summary, and optionally notes, files (workspace-relative), task_id, branch, commit, priority, phase ' +
    'and request (feature, spec_path, constraints, instructions, expected_output). A [pass_over: x] … Reason: … or [return_to: y] tag ' +
    "in the summary or notes acts like that pass or return; the answer's `tag` says whether it was accepted. Answers { handoff } with its id " +
    '(HO-YYYYMMDD-NNN).',
  listHandoffs:
    'List handoffs, optionally filtered by status (one or several), agent (owned by / assigned to), open (not merged or escalated) ' +
    'or handoffId (one handoff). archived: true also searches the archive, where finished handoffs go after archive.after_days. ' +
    'Read-only. Answers a page: { count, handoffs, total, next_cursor } in creation order, at most `limit` (default 50) compact records ' +
    '(handoff_id, status, owners, claimed_by, summary, age); `full: true` gives the stored records. While next_cursor is there, call again ' +
    'with cursor: next_cursor (and the same filters) for the next page. Every answer is at most 64 KB: a page that would be larger is cut ' +
    'and says so (cut_to_fit). One handoff in full: handoffId with full: true.',
  claimHandoff:
    'Claim a queued handoff for `agent` (moves it to in_progress). Refused with reason already_claimed and claimedBy when another agent holds ' +
    'it; expected_rev guards against a stale read. Answers { handoff }.',
  transitionHandoff:
    'Move a handoff to another status (`to`: queued, in_progress, blocked, ready_for_review, approved, merged, escalated) as `agent`, with an ' +
    'optional reason. Illegal moves are refused. Answers { handoff }.',
  completeHandoff:
    'Finish the work on a claimed handoff as `agent`, optionally with the protocol report `result` (status, decision PROCEED/STOP/CLARIFY, ' +
    "context_summary of at most 500 tokens, findings in the shape of the handoff's phase). Moves it to ready_for_review, or to blocked on " +
    'STOP/CLARIFY. A report over its limits is refused with E012 CONTEXT_OVERFLOW, a missing or misshapen one with E021 INVALID_WORK_OUTPUT. ' +
    'Answers { handoff }.',
  passOver:
    'Pass work from `agent` to another agent (`to`) with a reason and summary, creating a new handoff linked to handoffId (the work being passed ' +
    'on); return_required (default true) asks for it to come back; phase and request (feature, spec_path, constraints, instructions, ' +
    'expected_output) say what the receiver should do; `override` may tighten the policy of .agentsync.json, never loosen it (E031). Pass-over ' +
    'policy refusals carry code E00x/E03x. Answers { handoff } (the new one).',
  returnHandoff:
    'Return a passed-over handoff to the agent that passed it, as `agent`, with an optional result and message. Answers { handoff, returned, ' +
    'notify } (returned: the new handoff back to the originator; notify: { agent, handoff } when the policy notifies on return, else null).',
  clearConflicts:
    'Clear the merge conflicts recorded on a handoff (its `conflicts`: what a git merge of the store could not decide on its own), after a ' +
    'person checked what the merge chose. Only a human agent may; others are refused with not_assigned. Answers { handoff, cleared }.',
  assignHandoff:
    'Assign a blocked or queued handoff to one agent (single) or two (shared) in to_agents, as a human `agent` ("human" or one in humans of ' +
    '.agentsync.json); a blocked handoff moves to queued. Others are refused with not_assigned. Answers { handoff }.',
  heartbeat: 'Renew the lease `agent` holds on a claimed handoff, so it is not expired and released. Answers { handoff }.',
  updateTodos: 'Replace the todo list of a handoff as `agent` (each todo: id, content, status). Answers { handoff }.',
  expireLeases:
    'Send in-progress handoffs whose lease has run out (their holder stopped sending heartbeats) back to the queue, and hand passed work that ' +
    'timed out back to its origin (E010 / E022). Answers { released, timed_out, returned }.',
  startSession:
    'Start a working session for `agent` with an optional goal, optionally on a handoff it has claimed (handoffId); AgentTracker.md shows it ' +
    'under In Progress. Answers { agent, goal, session }.',
  endSession:
    'End the session of `agent` with a summary and nextWork, and either leave a handoff (`handoff`, as in createHandoff; from_agent defaults to ' +
    'the agent) or say why not (no_handoff_reason). Runs the configured commands (build, test and deploy of .agentsync.json) only if the local ' +
    'user approved them with `agentsync trust`; otherwise they are Skipped and the answer carries commandsUntrusted. Answers the session record ' +
    'and any handoff created.',
  status:
    'The workspace at a glance: active sessions, last session, open and stale handoffs, health, hot files and warnings; with `agent`, also the ' +
    'open handoffs assigned to it. Read-only.',
  health:
    'Run the build and test commands configured in .agentsync.json (never deploy) and answer their results; writes nothing. Refused with reason ' +
    'commands_untrusted until the local user approves the commands with `agentsync trust`. Runs one at a time per workspace.',
};

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
}

/** The action's parameter schema as JSON Schema, minus `action` (the tool name supplies it). */
export function toolInputSchema(action: ActionName): McpTool['inputSchema'] {
  const schema = actionInputSchema(action);
  // The tools' own `full` flag (core/requests/agentAnswers.ts): the action itself always answers full records.
  return action === 'listHandoffs' ? withFullFlag(schema) : schema;
}

/** Built once: the schemas do not change while the server runs. */
export function mcpTools(): McpTool[] {
  return ACTION_NAMES.map((name) => ({ name, description: DESCRIPTIONS[name], inputSchema: toolInputSchema(name) }));
}
