// Which archive file a handoff is filed in (docs/agentsync-documentation.md, "The archive"): the month of the day in
// its handoff_id, the day it was created, so `show HO-20260105-003` reads one month's file and no other. An id whose
// digits are not a real month (a hand-written one) files under the month of created_at.
import * as path from 'node:path';
import type { Handoff } from '../../domain/handoffSchema';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';

export const ARCHIVE_FILE_PATTERN = /^(\d{4}-(?:0[1-9]|1[0-2]))\.jsonl$/;

/** `YYYY-MM` of an id's day, or null when it names no month. */
export function monthOfId(id: string): string | null {
  const m = /^HO-(\d{4})(0[1-9]|1[0-2])\d{2}-\d+$/.exec(id);
  return m ? `${m[1]}-${m[2]}` : null;
}

export function archiveMonthOf(h: Pick<Handoff, 'handoff_id' | 'created_at'>): string {
  return monthOfId(h.handoff_id) ?? h.created_at.slice(0, 7);
}

export function archiveFileOf(layout: WorkspaceLayout, month: string): string {
  return path.join(layout.archiveDir, `${month}.jsonl`);
}

/** The ULID's time as `YYYY-MM`: where a record looked up by uid most likely is (it was created then). */
export function monthOfUid(uid: string): string | null {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(uid)) return null;
  let ms = 0;
  for (const c of uid.slice(0, 10)) ms = ms * 32 + alphabet.indexOf(c);
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 7);
}
