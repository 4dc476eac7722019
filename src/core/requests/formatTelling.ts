// A store version is announced once per clone (docs/contract.md §3, "Versions"): the answer of the request whose write
// first makes handoffs.json that version carries it in `data.notice`. The file goes back to version 1 when no record
// holds the field any more, so in a linked worktree, where every claim records its session, each claim after a quiet
// spell would say it again; a clone that was told is not told again. What was told is kept in the clone's home
// (format-told.json); where it cannot be kept, the notice is said again rather than lost.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { ensureSafeDirectory } from '../disk/safeDirectory';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

/** The words every format notice starts with (domain/storeVersion.ts and the actions that write a new version). */
const FORMAT_NOTICE = /^handoffs\.json is now written as store version (\d+):/;
const MAX_TOLD_BYTES = 4096;

export function formatToldFile(recordDir: string): string {
  return path.join(recordDir, 'format-told.json');
}

/** `data` without its format notice when this clone was told of that version before; the first time, noted as told. */
export function tellFormatOnce(
  data: Record<string, unknown> | undefined,
  layout: Pick<WorkspaceLayout, 'recordDir' | 'recordBase'>,
): Record<string, unknown> | undefined {
  const version = typeof data?.notice === 'string' ? FORMAT_NOTICE.exec(data.notice)?.[1] : undefined;
  if (!data || version === undefined) return data;
  const file = formatToldFile(layout.recordDir);
  const told = toldVersions(file);
  if (told.includes(version)) {
    const { notice: _told, ...rest } = data;
    return rest;
  }
  try {
    ensureSafeDirectory(layout.recordBase, layout.recordDir);
    writeFileAtomic(file, JSON.stringify({ told: [...told, version].sort() }) + '\n', { durable: false });
  } catch {
    // Said again by the next write that makes this version.
  }
  return data;
}

function toldVersions(file: string): string[] {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_TOLD_BYTES) return [];
    const told = (JSON.parse(fs.readFileSync(file, 'utf8')) as { told?: unknown }).told;
    return Array.isArray(told) ? told.filter((v): v is string => typeof v === 'string' && /^\d+$/.test(v)) : [];
  } catch {
    return [];
  }
}
