// The AgentSync tools Copilot agent mode sees (docs/contract.md §10a; docs/agentsync-documentation.md "Tools for agents"):
// derived from the action catalog (core/requests/catalog/): the action's one description, its tool entry, and its input
// schema generated from the action's zod params. No `vscode` import: `npm run schemas` writes contributionOf() into package.json
// (contributes.languageModelTools), and a unit test fails when package.json drifts from it.
import { withFullFlag } from '../../core/requests/agentAnswers';
import { actionInputSchema, withOptionalNested, type ObjectJsonSchema } from '../../core/requests/actionInputSchema';
import { ACTION_NAMES, actionOf, type ActionName } from '../../core/requests/catalog';

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

/** One tool per catalog action that has a `tool` entry, in catalog order; the model reads the action's description. */
export const LANGUAGE_MODEL_TOOLS: readonly LanguageModelToolSpec[] = ACTION_NAMES.flatMap((action) => {
  const entry = actionOf(action);
  const tool = entry.tool;
  if (!tool) return [];
  return [
    {
      name: `agentsync_${action}`,
      action,
      toolReferenceName: `agentsync${action[0].toUpperCase()}${action.slice(1)}`,
      displayName: tool.displayName,
      modelDescription: `${entry.description} ${tool.actsAsAgent ? `${AGENT} ` : ''}${ENVELOPE}`,
      userDescription: tool.userDescription,
      icon: tool.icon,
      changesStore: !entry.readOnly,
      actsAsAgent: tool.actsAsAgent,
    },
  ];
});

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
