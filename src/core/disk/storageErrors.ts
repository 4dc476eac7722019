// Names a failed disk operation by its cause (docs/agentsync-documentation.md, "Errors"): a full disk, a read-only
// file system or a permission problem each get their own reason, so "retry" is only ever advised when it can help.
import { ActionError, isActionError, type RefusalReason } from '../domain/errors';

const CAUSES: Record<string, { reason: RefusalReason; what: string; todo: string }> = {
  ENOSPC: { reason: 'disk_full', what: 'the disk is full', todo: 'free some space, then retry' },
  EDQUOT: { reason: 'disk_full', what: 'the disk quota is used up', todo: 'free some space, then retry' },
  EROFS: { reason: 'read_only', what: 'the file system is read-only', todo: 'make the checkout writable (reads still work)' },
  EACCES: { reason: 'permission_denied', what: 'permission was denied', todo: 'give this user write access to the folder' },
  EPERM: { reason: 'permission_denied', what: 'the operation was not permitted', todo: 'give this user write access to the folder' },
};

/** An ActionError naming the cause of a failed write to `file`; other errors pass through unchanged. */
export function storageError(e: unknown, file: string): unknown {
  if (isActionError(e)) return e;
  const code = (e as NodeJS.ErrnoException)?.code;
  const cause = code ? CAUSES[code] : undefined;
  if (!cause) return e;
  return new ActionError(cause.reason, `Could not write ${file}: ${cause.what} (${code}); ${cause.todo}.`, { path: file, code });
}

/** A full disk, a read-only file system or missing write permission: conditions that pass, so work is retried, not rejected. */
export function isStorageFailure(e: unknown): boolean {
  return isActionError(e) && (e.reason === 'disk_full' || e.reason === 'read_only' || e.reason === 'permission_denied');
}
