// Paths that agents give us are workspace-relative and may never escape the workspace.
import * as path from 'node:path';
import * as z from 'zod';
import { canonicalRelativePath } from './canonicalPath';

export function checkWorkspaceRelative(p: string): string | null {
  if (p.length === 0) return 'is empty';
  if (p.length > 1_000) return 'is longer than 1000 characters';
  // eslint-disable-next-line no-control-regex -- matching control characters is the purpose
  if (/[\u0000-\u001f]/.test(p)) return 'contains control characters';
  if (path.posix.isAbsolute(p) || path.win32.isAbsolute(p) || /^[a-zA-Z]:/.test(p))
    return 'is absolute; give a path relative to the workspace folder';
  const parts = p.split(/[\\/]+/);
  if (parts.includes('..')) return 'contains ".." and could escape the workspace';
  return null;
}

/** A path a request gives for a record's `files`: checked, then stored canonical (records already stored keep theirs). */
export const inputWorkspacePath = z
  .string()
  .superRefine((p, ctx) => {
    const problem = checkWorkspaceRelative(p) ?? (canonicalRelativePath(p) === '' ? 'names no file (only "." and separators)' : null);
    if (problem) ctx.addIssue({ code: 'custom', message: `path ${JSON.stringify(p.slice(0, 80))} ${problem}` });
  })
  .transform(canonicalRelativePath);

export const workspaceRelativePath = z.string().superRefine((p, ctx) => {
  const problem = checkWorkspaceRelative(p);
  if (problem) ctx.addIssue({ code: 'custom', message: `path ${JSON.stringify(p.slice(0, 80))} ${problem}` });
});
