// JSON Schema of an action's parameters, generated from its zod schema (the action's catalog entry), for the surfaces that
// describe their input to a model: MCP tools (`agentsync mcp`) and VS Code language-model tools (package.json
// contributes.languageModelTools, written by `npm run schemas`). One source, so what a tool advertises is what
// the dispatcher accepts (docs/agentsync-documentation.md, "Tools for agents").
import * as z from 'zod';
import { paramsSchemaOf, type ActionName } from './catalog';

export interface ObjectJsonSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** The action's parameter schema as JSON Schema, minus `action` (the tool name supplies it) and the draft marker. */
export function actionInputSchema(action: ActionName, options: { optional?: readonly string[] } = {}): ObjectJsonSchema {
  const json = z.toJSONSchema(paramsSchemaOf(action), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // Drop the draft marker: MCP clients and VS Code assume their own JSON Schema dialect for an input schema.
  const {
    $schema: _dialect,
    properties,
    required,
    ...rest
  } = json as { $schema?: string; properties?: Record<string, unknown>; required?: string[] };
  const props = { ...(properties ?? {}) };
  delete props.action;
  const dropped = new Set(['action', ...(options.optional ?? [])]);
  const req = (required ?? []).filter((k) => !dropped.has(k));
  return { ...rest, type: 'object', properties: props, ...(req.length ? { required: req } : {}) };
}

/** A copy of `schema` where the nested object at `property` no longer requires `field` (a caller fills it in). */
export function withOptionalNested(schema: ObjectJsonSchema, property: string, field: string): ObjectJsonSchema {
  const nested = schema.properties?.[property] as ObjectJsonSchema | undefined;
  if (!nested?.required) return schema;
  const required = nested.required.filter((k) => k !== field);
  const { required: _r, ...rest } = nested;
  return { ...schema, properties: { ...schema.properties, [property]: { ...rest, ...(required.length ? { required } : {}) } } };
}
