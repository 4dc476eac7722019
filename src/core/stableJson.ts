// Canonical JSON (sorted keys) for hashing requests; builds a string, never an object, so "__proto__" keys stay inert.
import { createHash } from 'node:crypto';

export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function requestHash(request: Record<string, unknown>): string {
  const { request_id: _ignored, ...rest } = request;
  return createHash('sha256').update(stableStringify(rest)).digest('hex').slice(0, 32);
}
