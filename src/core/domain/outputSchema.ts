// The output schema a pass may require of its report's `findings` (docs/contract.md §6, `validate_output`). The schema
// comes from a request or a committed file, so it is untrusted: at most 16 KiB, a small documented subset of JSON
// Schema, and checked by this interpreter (no code is generated from it), within a step budget so no schema and no
// report can make the check run long. `pattern` is left out on purpose: a hostile regular expression can take
// exponential time.
import * as z from 'zod';

export const OUTPUT_SCHEMA_LIMITS = { bytes: 16 * 1024, depth: 12, steps: 200_000, problems: 20 } as const;

/** The keywords of the subset; any other keyword is refused, so a schema never means more than it is checked for. */
export const SUBSET_KEYWORDS = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'title',
  'description',
] as const;

const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why `schema` is not a schema of the subset (one line each, with its path), or []. */
export function schemaProblems(schema: unknown): string[] {
  const problems: string[] = [];
  const bytes = Buffer.byteLength(JSON.stringify(schema) ?? '');
  if (bytes > OUTPUT_SCHEMA_LIMITS.bytes) return [`is ${bytes} bytes as JSON; the limit is ${OUTPUT_SCHEMA_LIMITS.bytes}`];
  const walk = (s: unknown, at: string, depth: number): void => {
    if (problems.length >= OUTPUT_SCHEMA_LIMITS.problems) return;
    if (!isObject(s)) return void problems.push(`${at}: a schema is an object`);
    if (depth > OUTPUT_SCHEMA_LIMITS.depth) return void problems.push(`${at}: nested deeper than ${OUTPUT_SCHEMA_LIMITS.depth}`);
    for (const [k, v] of Object.entries(s)) {
      if (!(SUBSET_KEYWORDS as readonly string[]).includes(k))
        problems.push(`${at}.${k}: not in the supported subset (${SUBSET_KEYWORDS.join(', ')})`);
      else if (k === 'type' && !(Array.isArray(v) ? v : [v]).every((t) => typeof t === 'string' && TYPES.includes(t)))
        problems.push(`${at}.type: one of ${TYPES.join(', ')}, or a list of them`);
      else if (k === 'properties') {
        if (!isObject(v)) problems.push(`${at}.properties: an object of schemas`);
        else for (const [name, sub] of Object.entries(v)) walk(sub, `${at}.properties.${name}`, depth + 1);
      } else if (k === 'items') walk(v, `${at}.items`, depth + 1);
      else if (k === 'additionalProperties' && typeof v !== 'boolean') problems.push(`${at}.additionalProperties: true or false`);
      else if (k === 'required' && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
        problems.push(`${at}.required: a list of names`);
      else if (k === 'enum' && !Array.isArray(v)) problems.push(`${at}.enum: a list of values`);
      else if (['minimum', 'maximum'].includes(k) && typeof v !== 'number') problems.push(`${at}.${k}: a number`);
      else if (/^(min|max)(Length|Items)$/.test(k) && !(Number.isInteger(v) && (v as number) >= 0))
        problems.push(`${at}.${k}: a whole number, 0 or more`);
    }
  };
  walk(schema, 'output_schema', 0);
  return problems;
}

/** `output_schema` as a policy key: an object of the subset, within the size limit. */
export const outputSchemaSchema = z.record(z.string(), z.unknown()).superRefine((s, ctx) => {
  for (const p of schemaProblems(s)) ctx.addIssue({ code: 'custom', message: p });
});

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function fitsType(v: unknown, t: string): boolean {
  if (t === 'integer') return Number.isInteger(v);
  return typeOf(v) === t;
}

/**
 * Where `value` does not fit `schema` (a schema already checked by schemaProblems), one line each, at most 20; a
 * check over its step budget stops and says so (the report is then refused: a report too costly to check is not checked).
 */
export function outputProblems(schema: Schema, value: unknown): string[] {
  const problems: string[] = [];
  let steps = 0;
  const visit = (s: Schema, v: unknown, at: string): void => {
    if (problems.length >= OUTPUT_SCHEMA_LIMITS.problems) return;
    if (++steps > OUTPUT_SCHEMA_LIMITS.steps) throw new RangeError('budget');
    if (s.type !== undefined) {
      const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
      if (!types.some((t) => fitsType(v, t))) return void problems.push(`${at}: expected ${types.join(' or ')}, got ${typeOf(v)}`);
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
      problems.push(`${at}: expected one of ${JSON.stringify(s.enum).slice(0, 200)}`);
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v))
      problems.push(`${at}: expected ${JSON.stringify(s.const).slice(0, 200)}`);
    if (typeof v === 'number') {
      if (typeof s.minimum === 'number' && v < s.minimum) problems.push(`${at}: below the minimum ${s.minimum}`);
      if (typeof s.maximum === 'number' && v > s.maximum) problems.push(`${at}: above the maximum ${s.maximum}`);
    }
    if (typeof v === 'string') {
      if (typeof s.minLength === 'number' && v.length < s.minLength) problems.push(`${at}: shorter than ${s.minLength} characters`);
      if (typeof s.maxLength === 'number' && v.length > s.maxLength) problems.push(`${at}: longer than ${s.maxLength} characters`);
    }
    if (Array.isArray(v)) {
      if (typeof s.minItems === 'number' && v.length < s.minItems) problems.push(`${at}: fewer than ${s.minItems} items`);
      if (typeof s.maxItems === 'number' && v.length > s.maxItems) problems.push(`${at}: more than ${s.maxItems} items`);
      if (isObject(s.items)) v.forEach((item, i) => visit(s.items as Schema, item, `${at}[${i}]`));
    }
    if (isObject(v)) {
      const props = isObject(s.properties) ? s.properties : {};
      for (const name of Array.isArray(s.required) ? (s.required as string[]) : [])
        if (!Object.prototype.hasOwnProperty.call(v, name)) problems.push(`${at}.${name}: required`);
      for (const [name, sub] of Object.entries(v)) {
        if (Object.prototype.hasOwnProperty.call(props, name) && isObject(props[name])) visit(props[name], sub, `${at}.${name}`);
        else if (s.additionalProperties === false) problems.push(`${at}.${name}: not allowed (additionalProperties is false)`);
      }
    }
  };
  try {
    visit(schema, value, 'findings');
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    problems.push(`findings: too costly to check against output_schema (over ${OUTPUT_SCHEMA_LIMITS.steps} steps); send smaller findings`);
  }
  return problems;
}
