// `agentsync merge-driver %O %A %B`: git's merge driver for .agentsync/handoffs.json (docs/agentsync-documentation.md,
// "Merging with git"; core/git/mergeDriverRegistration.ts registers it). git calls the driver with the ancestor, ours
// (where the result goes) and theirs as temp files; exit 0 means merged, anything else makes git report a conflict.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/disk/atomicFile';
import { describeIssues, handoffsFileSchema, type Handoff, type HandoffsFile } from '../core/domain/handoffSchema';
import { mergeStores } from '../core/domain/merge/mergeStores';
import { ArchiveReader } from '../core/store/archive/archiveReader';
import { WorkspaceLayout } from '../core/workspace/workspaceLayout';
import { UsageError } from './cliContext';
import type { Verb } from './handoffVerbs';
import { okResponse, refusal } from '../core/domain/responseEnvelope';
import { mergeContext, wrongPath } from './mergeSides';
import { recordMovedIds, type MovedId } from '../core/store/movedIds';
import { FileLock } from '../core/disk/fileLock';
import { assertSafeDirectory } from '../core/disk/safeDirectory';

class InputError extends Error {}

/** Reads and validates one of git's three versions. An empty ancestor means "no common version" (both added the file). */
function readVersion(file: string, label: string): HandoffsFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read the ${label} version (${file}): ${(e as Error).message}`);
  }
  if (label === 'base' && text.trim() === '') return { version: 1, handoffs: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new InputError(`the ${label} version is not valid JSON (${(e as Error).message})`);
  }
  const parsed = handoffsFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new InputError(`the ${label} version does not match the handoffs.json schema: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * The archived copies in the work tree (git runs the driver at its top; `%P`, the store's path there, names the
 * workspace folder). Whatever the tree holds of the archive at merge time is consulted; a line it lacks is not.
 */
function archiveOf(storePath: string | undefined, warn: (m: string) => void): (h: Handoff) => Handoff | undefined {
  const root = path.resolve(storePath ? path.dirname(path.dirname(storePath)) : '.');
  const reader = new ArchiveReader(new WorkspaceLayout(root), warn);
  return (h) => {
    try {
      const copy = reader.find(h.handoff_id);
      return copy && copy.uid === h.uid ? copy : h.uid ? reader.find(h.uid) : undefined;
    } catch {
      return undefined; // an unreadable archive only means no copy: the changed record is kept, as without one
    }
  };
}

/** The workspace folder of the store at `storePath` (%P, relative to the top of the work tree), posix. */
function prefixOf(storePath: string | undefined): string {
  if (!storePath) return '';
  const dir = path.posix.dirname(path.posix.dirname(storePath.split(path.sep).join('/')));
  return dir === '.' ? '' : dir;
}

/**
 * Notes in this clone's state.json (local, not committed) the ids this merge moved, so a request naming an old id is
 * refused `id_moved` until the clone's agents were told (core/store/movedIds.ts). Under the store's lock.
 */
async function noteMoves(root: string, moves: MovedId[], warn: (m: string) => void): Promise<void> {
  if (moves.length === 0) return;
  const layout = new WorkspaceLayout(root);
  const lock = new FileLock(layout.lockFile, 5_000);
  try {
    assertSafeDirectory(layout.root, layout.dataDir);
    await lock.acquire();
    try {
      recordMovedIds(layout, moves);
    } finally {
      lock.release();
    }
  } catch (e) {
    warn(
      `could not note the moved ids in .agentsync/state.json (${(e as Error).message}): requests naming ` +
        `${moves.map((m) => m.id).join(', ')} now reach the published handoffs; tell this clone's agents the new ids`,
    );
  }
}

export const mergeDriverVerb: Verb = {
  usage: '<base %O> <ours %A> <theirs %B> [<path %P>]',
  summary: 'git merge driver for .agentsync/handoffs.json (register it with `agentsync init --git`); writes the merge into the ours file',
  options: {},
  workspace: 'found-or-here',
  run: async (ctx, _values, pos) => {
    if (pos.length !== 3 && pos.length !== 4)
      throw new UsageError('expected three files: the base (%O), ours (%A, receives the result) and theirs (%B), then optionally %P');
    const [basePath, oursPath, theirsPath] = pos.slice(0, 3).map((p) => path.resolve(p));
    const refuse = (message: string, reason: 'store_invalid' | 'invalid_request' = 'store_invalid'): number => {
      if (ctx.json) ctx.io.out(JSON.stringify(refusal('merge-driver', reason, message)));
      else ctx.io.err(`agentsync merge-driver: ${message}`);
      return 1;
    };
    const wrong = pos[3] === undefined ? null : wrongPath(pos[3], 'store', process.cwd());
    if (wrong)
      return refuse(
        `${wrong}; this driver merges only that file. Nothing was written: git reports a conflict in ${pos[3]}. Map only ` +
          '`.agentsync/handoffs.json merge=agentsync` in .gitattributes (agentsync init --git writes that line).',
        'invalid_request',
      );
    let text: string;
    let notes: ReturnType<typeof mergeStores>['notes'];
    let count: number;
    const root = process.cwd(); // git runs merge drivers at the top of the work tree
    const prefix = prefixOf(pos[3]);
    try {
      const base = readVersion(basePath, 'base');
      const ours = readVersion(oursPath, 'ours');
      const theirs = readVersion(theirsPath, 'theirs');
      const sides = mergeContext(
        root,
        prefix,
        process.env,
        archiveOf(pos[3], (m) => ctx.io.err(`agentsync merge-driver: ${m}`)),
      );
      const result = mergeStores(base, ours, theirs, new Date(), sides.archivedCopy, sides.options);
      const checked = handoffsFileSchema.safeParse(result.file);
      if (!checked.success) throw new InputError(`the merged file would not be valid (${describeIssues(checked.error)})`);
      text = JSON.stringify(checked.data, null, 2) + '\n';
      notes = result.notes;
      count = checked.data.handoffs.length;
    } catch (e) {
      return refuse(
        `${(e as Error).message}. Nothing was written: git will report a conflict in .agentsync/handoffs.json; fix the broken version (or resolve ` +
          `by hand) and validate it with \`agentsync list\`.`,
      );
    }
    writeFileAtomic(oursPath, text);
    const at = new Date().toISOString();
    const moves: MovedId[] = notes.flatMap((n) =>
      n.kind === 'renumbered' && n.uid && n.previous_id
        ? [{ id: n.previous_id, uid: n.uid, moved_to: n.handoff_id, ...(n.holder_uid ? { holder_uid: n.holder_uid } : {}), at }]
        : [],
    );
    await noteMoves(path.resolve(root, prefix || '.'), moves, (m) => ctx.io.err(`agentsync merge-driver: ${m}`));
    if (ctx.json) ctx.io.out(JSON.stringify(okResponse('merge-driver', { handoffs: count, notes })));
    else
      for (const n of notes)
        if (n.kind === 'conflict' || n.kind === 'renumbered' || n.kind === 'kept') ctx.io.err(`agentsync merge-driver: ${n.message}`);
    return 0;
  },
};
