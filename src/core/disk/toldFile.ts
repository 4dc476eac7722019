// A file of what a notice has already told (`{"told": [...]}`), so that it is told once: the withdrawn passes a
// receiver was told of (hooks/withdrawNotices.ts), the store versions a clone was told of (requests/formatTelling.ts).
// Best effort both ways: a file that cannot be read means nothing was told, and one that cannot be written means the
// notice is given again, never not at all. Node built-ins only: dist/hook.js reads it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from './atomicFile';
import { ensureSafeDirectory } from './safeDirectory';

/** The keys `file` says were told; none when it is missing or not such a file. */
export function readTold(file: string): string[] {
  try {
    const told = (JSON.parse(fs.readFileSync(file, 'utf8')) as { told?: unknown }).told;
    return Array.isArray(told) ? told.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Records `told` as what `file` has told; every folder between `base` and the file must be real (no symlink). */
export function writeTold(base: string, file: string, told: readonly string[]): void {
  try {
    ensureSafeDirectory(base, path.dirname(file));
    writeFileAtomic(file, JSON.stringify({ told }) + '\n', { durable: false });
  } catch {
    // Told again next time.
  }
}
