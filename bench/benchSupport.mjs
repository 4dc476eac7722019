// What the benches share: the compiled core (out/, from `npx tsc -p .`) and the percentile every figure is printed as.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** A compiled core module by its path under src/core, e.g. `store/handoffStore`. */
export function coreModule(name) {
  const file = path.join(ROOT, 'out/src/core', name);
  if (!fs.existsSync(file + '.js')) throw new Error(`${file}.js is missing: run npx tsc -p . first`);
  return require(file);
}

/** The p-th percentile (0 < p <= 100) of `xs`: the smallest value that at least p% of them do not exceed. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const median = (xs) => percentile(xs, 50);
