// The AgentSync tools Copilot agent mode sees (docs/contract.md §10a; docs/agentsync-documentation.md "Tools for agents"):
// which action each runs, when a model should pick it, and its input schema generated from the action's zod
// params. No `vscode` import: `npm run schemas` writes contributionOf() into package.json
// (contributes.languageModelTools), and a unit test fails when package.json drifts from it.
import { withFullFlag } from '../../core/requests/agentAnswers';
import { actionInputSchema, withOptionalNested, type ObjectJsonSchema } from '../../core/requests/actionInputSchema';
import type { ActionName } from '../../core/requests/requestParams';

export interface LanguageModelToolSpec {
  /** The tool name: `agentsync_<action>`. */
  name: string;
  action: ActionName;
  toolReferenceName: string;
  displayName: string;
  /** When a model should use it, what it needs, and what it answers. */
  modelDescription: string;
  userDescription: string;
  icon: string;
  /** Changes the store: the user confirms first (prepareInvocation). */
  changesStore: boolean;
  /** The window's agent identity is filled into `agent` when the input names none. */
  actsAsAgent: boolean;
}

const ENVELOPE =
  'Answers the AgentSync response envelope as JSON: {"ok":true,"action","request_id","timestamp","data":{...}} ' +
  'or {"ok":false,"reason":"<code>","message":"<what was wrong and what to do>"}.';
const AGENT = "`agent` (optional) is the agent you act as; leave it out to act as this VS Code window's agent (setting agentsync.agentId).";

export const LANGUAGE_MODEL_TOOLS: readonly LanguageModelToolSpec[] = [
  {
    name: 'agentsync_createHandoff',
    action: 'createHandoff',
    toolReferenceName: 'agentsyncCreateHandoff',
    displayName: 'AgentSync: Create Handoff',
    modelDescription:
      `Use when you stop before a piece of work is done and another agent or a person should pick it up, or when the ` +
      `user asks you to hand work over. \`handoff\` holds owner_mode (single: exactly one to_agents entry; shared: ` +
      `exactly two; auto: routed by required_capabilities), summary (what to do, one line), and optionally notes, ` +
      `files (workspace-relative paths), task_id, branch, commit, priority (low|medium|high). from_agent defaults to ` +
      `you. Answers data.handoff with its handoff_id (HO-YYYYMMDD-NNN). ${ENVELOPE}`,
    userDescription: 'Leave work for another agent or a person as an AgentSync handoff.',
    icon: '$(note)',
    changesStore: true,
    actsAsAgent: true,
  },
  {
    name: 'agentsync_listHandoffs',
    action: 'listHandoffs',
    toolReferenceName: 'agentsyncListHandoffs',
    displayName: 'AgentSync: List Handoffs',
    modelDescription:
      `Use to see what work is waiting in this repository before you start, or to find a handoff_id: lists handoffs, ` +
      `optionally filtered by status (queued, in_progress, blocked, ready_for_review, approved, merged, escalated; ` +
      `one or several), agent (assigned to that agent), open (true: not merged or escalated) and handoffId (one handoff); ` +
      `archived: true also searches the archive (finished handoffs older than archive.after_days). Read-only. Answers ` +
      `a page: data.count, data.total, data.handoffs (at most limit, default 50, in creation order, compact: handoff_id, ` +
      `status, owners, claimed_by, summary, age; full: true for every field) and data.next_cursor while more follow: ` +
      `call again with cursor set to it. An answer is at most 64 KB. ${ENVELOPE}`,
    userDescription: 'List the AgentSync handoffs of this workspace.',
    icon: '$(list-unordered)',
    changesStore: false,
    actsAsAgent: false,
  },
  {
    name: 'agentsync_claimHandoff',
    action: 'claimHandoff',
    toolReferenceName: 'agentsyncClaimHandoff',
    displayName: 'AgentSync: Claim Handoff',
    modelDescription:
      `Use before you start on a queued handoff (handoffId from listHandoffs or status), so no other agent works on ` +
      `it at the same time: it moves to in_progress, held by you with a lease. Refused with reason already_claimed ` +
      `and claimedBy when someone else holds it: then pick other work. ${AGENT} ${ENVELOPE}`,
    userDescription: 'Claim a queued AgentSync handoff.',
    icon: '$(arrow-circle-down)',
    changesStore: true,
    actsAsAgent: true,
  },
  {
    name: 'agentsync_completeHandoff',
    action: 'completeHandoff',
    toolReferenceName: 'agentsyncCompleteHandoff',
    displayName: 'AgentSync: Complete Handoff',
    modelDescription:
      `Use when you finished (or must stop) the work of a handoff you claimed: send the report \`result\` {status: ` +
      `complete|partial|blocked, decision: PROCEED|STOP|CLARIFY, findings: {}, context_summary: what you did and ` +
      `what is left, at most 500 tokens}. PROCEED moves it to ready_for_review; STOP or CLARIFY blocks it for a ` +
      `human. ${AGENT} ${ENVELOPE}`,
    userDescription: 'Finish a claimed AgentSync handoff with a report.',
    icon: '$(check)',
    changesStore: true,
    actsAsAgent: true,
  },
  {
    name: 'agentsync_passOver',
    action: 'passOver',
    toolReferenceName: 'agentsyncPassOver',
    displayName: 'AgentSync: Pass Over',
    modelDescription:
      `Use when part of your work needs another agent (a review, tests, research): passes it to \`to\` with a reason ` +
      `and summary, as a new handoff linked to handoffId (the work being passed on); return_required (default true) ` +
      `brings it back to you when done. Loops and policy breaches are refused with a code E00x. ${AGENT} ${ENVELOPE}`,
    userDescription: 'Pass work to another agent; it returns to you when done.',
    icon: '$(export)',
    changesStore: true,
    actsAsAgent: true,
  },
  {
    name: 'agentsync_returnHandoff',
    action: 'returnHandoff',
    toolReferenceName: 'agentsyncReturnHandoff',
    displayName: 'AgentSync: Return Handoff',
    modelDescription:
      `Use when you finished work that was passed over to you and it must go back to the agent that passed it: ` +
      `returns handoffId with an optional \`result\` (the same report as completeHandoff) and message. Answers ` +
      `data.handoff and data.returned (the new handoff back to the originator). ${AGENT} ${ENVELOPE}`,
    userDescription: 'Return passed-over work to the agent that passed it.',
    icon: '$(reply)',
    changesStore: true,
    actsAsAgent: true,
  },
  {
    name: 'agentsync_status',
    action: 'status',
    toolReferenceName: 'agentsyncStatus',
    displayName: 'AgentSync: Status',
    modelDescription:
      `Use at the start of work in this repository, and whenever you need the big picture: active sessions, open and ` +
      `stale handoffs, the ones assigned to you, health, hot files and warnings. Read-only. ${AGENT} ${ENVELOPE}`,
    userDescription: 'The AgentSync state of this workspace at a glance.',
    icon: '$(pulse)',
    changesStore: false,
    actsAsAgent: true,
  },
];

/** The input schema a tool declares: the action's, with `agent` (and createHandoff's from_agent) optional. */
export function languageModelToolInputSchema(spec: LanguageModelToolSpec): ObjectJsonSchema {
  const schema = actionInputSchema(spec.action, { optional: ['agent'] });
  if (spec.action === 'listHandoffs') return withFullFlag(schema);
  return spec.action === 'createHandoff' ? withOptionalNested(schema, 'handoff', 'from_agent') : schema;
}

/** package.json contributes.languageModelTools. */
export function languageModelToolContributions(): Record<string, unknown>[] {
  return LANGUAGE_MODEL_TOOLS.map((spec) => ({
    name: spec.name,
    toolReferenceName: spec.toolReferenceName,
    displayName: spec.displayName,
    modelDescription: spec.modelDescription,
    userDescription: spec.userDescription,
    canBeReferencedInPrompt: true,
    icon: spec.icon,
    tags: ['agentsync'],
    inputSchema: languageModelToolInputSchema(spec),
  }));
}

/** The request a tool call sends: the action, the input, and the acting agent (the input's, else the window's `me`). */
export function requestFor(spec: LanguageModelToolSpec, input: Record<string, unknown>, me: string): Record<string, unknown> {
  const request: Record<string, unknown> = { ...input, action: spec.action };
  if (spec.actsAsAgent && request.agent === undefined) request.agent = me;
  if (spec.action === 'createHandoff') {
    // createHandoff names its author in handoff.from_agent; `agent` only supplies it.
    const handoff = input.handoff;
    if (
      handoff &&
      typeof handoff === 'object' &&
      !Array.isArray(handoff) &&
      (handoff as { from_agent?: unknown }).from_agent === undefined
    ) {
      request.handoff = { ...handoff, from_agent: input.agent ?? me };
    }
  }
  return request;
}
