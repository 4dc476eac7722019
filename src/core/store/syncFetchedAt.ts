// When this clone last fetched or pushed the shared state: the one field of sync.json (syncStateFile.ts) a reader needs
// for the age of what it shows. Read apart from the entries' checks, so a tool hook (which asks this through
// StoreReader) loads no schema library at every tool call.
import * as fs from 'node:fs';

/** `fetched_at` of `file` (the home's sync.json); null when it is missing, not a regular file, not JSON, or holds none. */
export function readSyncFetchedAt(file: string): string | null {
  try {
    if (!fs.lstatSync(file).isFile()) return null;
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { fetched_at?: unknown } | null;
    return typeof raw?.fetched_at === 'string' ? raw.fetched_at : null;
  } catch {
    return null;
  }
}
