// Where a pass's work context lives (docs/contract.md §6, "The work context"): the home's `context/<uid>.json`, beside
// the record and never in it. In sync mode, in shared format 3, it also travels in the shared state with the pass's
// write (sync/sharedChanges.ts), and a clone that first sees the pass takes it from there (sync/batchRecords.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { ensureSafeDirectory } from '../disk/safeDirectory';
import { workContextSchema, type WorkContext } from '../domain/workContext';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

const UID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** The largest context file read back: the protocol's own cap is far below it (checkContext, E012). */
export const CONTEXT_FILE_MAX = 4 * 1024 * 1024;

function fileFor(layout: WorkspaceLayout, uid: string): string | null {
  return UID.test(uid) ? path.join(layout.contextDir, `${uid}.json`) : null;
}

/** A context's bytes as stored, here and in the shared state alike. */
export function contextBytes(context: WorkContext): string {
  return JSON.stringify(context, null, 2) + '\n';
}

/** Writes the context file of `uid` (bytes from contextBytes, or as the shared state holds them). */
export function writeContextFile(layout: WorkspaceLayout, uid: string, bytes: string | Buffer): void {
  const file = fileFor(layout, uid);
  if (!file) return;
  ensureSafeDirectory(layout.recordBase, layout.contextDir);
  writeFileAtomic(file, bytes);
}

/** Whether this clone holds a context file for `uid` (of any content). */
export function hasContextFile(layout: WorkspaceLayout, uid: string): boolean {
  const file = fileFor(layout, uid);
  return Boolean(file && fs.lstatSync(file, { throwIfNoEntry: false }));
}

/** A context's bytes parsed and checked; null when they are not one (it is another agent's data). */
export function parseContext(bytes: string | Buffer): WorkContext | null {
  try {
    const parsed = workContextSchema.safeParse(JSON.parse(bytes.toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The context stored for a handoff, or null (none, unreadable, or not a context). */
export function readContextFile(layout: WorkspaceLayout, uid: string | undefined): WorkContext | null {
  const file = uid ? fileFor(layout, uid) : null;
  if (!file) return null;
  try {
    const st = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > CONTEXT_FILE_MAX) return null;
    return parseContext(fs.readFileSync(file));
  } catch {
    return null;
  }
}
