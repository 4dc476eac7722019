// A store version is announced once per clone (docs/contract.md §3, "Versions"): the answer of the request whose write
// first makes handoffs.json that version carries it in `data.notice`. The file goes back to version 1 when no record
// holds the field any more, so in a linked worktree, where every claim records its session, each claim after a quiet
// spell would say it again; a clone that was told is not told again. What was told is kept in the clone's home
// (format-told.json); where it cannot be kept, the notice is said again rather than lost.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTold, writeTold } from '../disk/toldFile';
import { announcedVersion } from '../domain/storeVersion';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';

const MAX_TOLD_BYTES = 4096;

/** `data` without its format notice when this clone was told of that version before; the first time, noted as told. */
export function tellFormatOnce(
  data: Record<string, unknown> | undefined,
  layout: Pick<WorkspaceLayout, 'recordDir' | 'recordBase'>,
): Record<string, unknown> | undefined {
  const version = typeof data?.notice === 'string' ? announcedVersion(data.notice) : undefined;
  if (!data || version === undefined) return data;
  const file = path.join(layout.recordDir, 'format-told.json');
  const told = toldVersions(file);
  if (told.includes(version)) {
    const { notice: _told, ...rest } = data;
    return rest;
  }
  writeTold(layout.recordBase, file, [...told, version].sort());
  return data;
}

function toldVersions(file: string): string[] {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_TOLD_BYTES) return [];
    return readTold(file).filter((v) => /^\d+$/.test(v));
  } catch {
    return [];
  }
}
