// Parsing JSON AgentSync is given (requests, .agentsync.json, agents' hook settings files) with a bound on its nesting:
// a hostile file thousands of levels deep is refused with a clear message instead of overflowing the stack in the
// code that walks, clones or prints it (docs/contract.md §8, bad input).
import { nestsDeeperThan } from './stableJson';

/** How deep any JSON AgentSync reads may nest objects and arrays. */
export const MAX_JSON_DEPTH = 64;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; problem: string };

/** JSON.parse (itself safe at any depth), then an iterative depth check; `problem` completes "<file> …". */
export function parseBoundedJson(text: string): BoundedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `is not valid JSON (${(e as Error).message})` };
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    return { ok: false, problem: `nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep` };
  }
  return { ok: true, value };
}
