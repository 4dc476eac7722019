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

/**
 * True when `value` nests objects or arrays more than `limit` levels deep (a cycle counts as endless nesting).
 * Iterative, so a hostile request cannot overflow the stack here the way it would in stableStringify or JSON.stringify.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
