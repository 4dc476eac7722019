// The MCP tool list: one tool per core action (docs/contract.md §1, §8). The tool name is the action name, the
// description the action's catalog entry's (the one Copilot's tools read too) and the input schema the action's own zod
// parameter schema, so an MCP caller sees exactly what the dispatcher accepts.
import { ACTION_NAMES, CATALOG, type ActionName } from '../core/requests/catalog';
import { actionInputSchema } from '../core/requests/actionInputSchema';
import { withFullFlag } from '../core/requests/agentAnswers';

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
  return ACTION_NAMES.map((name) => ({ name, description: CATALOG[name].description, inputSchema: toolInputSchema(name) }));
}
