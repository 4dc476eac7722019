// The clone's one live record and the main worktree's committed store (docs/contract.md §14 item 2). The home is
// seeded from the committed store on first use; after each write the committed store follows the record; a record
// the committed store holds that the home lacks, or holds at a higher rev (a teammate's, arrived by `git pull`),
// joins the home at the next write. A linked worktree's copies are never read here and never written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from '../domain/errors';
import { HandoffIdAllocator, laterId } from '../domain/handoffIds';
import { handoffsFileSchema, type Handoff, type HandoffsFile } from '../domain/handoffSchema';
import { writeFileAtomic } from '../disk/atomicFile';
import { fileStatKeyOf } from '../disk/fileStatKey';
import { ensureSafeDirectory } from '../disk/safeDirectory';
import { SEED_NOTICE, SEEN_COMMITTED, regularStoreBytes, rememberCommitted } from './homeSeed';
import { configMissingMessage } from '../workspace/workspaceHome';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import { committedStore } from './committedStore';
import { withPreviousId } from '../domain/previousIds';

/**
 * Refuses, before anything is read or written, a workspace whose worktree cannot be used (its main checkout moved or
 * deleted), and a write where the clone has no configuration (`config_missing`: never served by defaults).
 */
export function assertPlacementUsable(layout: WorkspaceLayout, write: boolean): void {
  if (layout.worktreeProblem) throw new ActionError('not_a_workspace', `${layout.worktreeProblem}; nothing was changed.`);
  if (write && layout.placement && !fs.existsSync(layout.configFile))
    throw new ActionError('config_missing', configMissingMessage(layout.placement), { configFile: layout.configFile });
}

function parseStore(bytes: Buffer): HandoffsFile | null {
  try {
    const parsed = handoffsFileSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * True when this surface may write the committed files (audit, tracker): outside git always; in git when the worktree
 * is usable and the clone has its configuration (otherwise the main worktree is on a branch without AgentSync, where a
 * new file would be untracked and stop `git checkout` back).
 */
export function mayWriteCommitted(layout: WorkspaceLayout): boolean {
  return !layout.worktreeProblem && (!layout.placement || fs.existsSync(layout.configFile));
}

/**
 * The seeding notice, to the one store that takes it (renamed away first, so two processes never both say it), with
 * `extras`' lines about the seeded record (the CLI's: linked worktrees' copies holding records it lacks).
 */
export function takeSeedNotice(layout: WorkspaceLayout, extras: (record: HandoffsFile) => string[] = () => []): string[] {
  if (!layout.placement) return [];
  const file = path.join(layout.recordDir, SEED_NOTICE);
  const taken = `${file}.${process.pid}`;
  try {
    fs.renameSync(file, taken);
  } catch {
    return [];
  }
  try {
    const lines = fs.readFileSync(taken, 'utf8').split('\n').filter(Boolean);
    const bytes = regularStoreBytes(layout.handoffsFile);
    const record = bytes && parseStore(bytes);
    return record ? [...lines, ...extras(record)] : lines;
  } finally {
    fs.rmSync(taken, { force: true });
  }
}

/** A bare clone's HEAD store, for seeding its home (homeSeed.ts); null when HEAD has none or it is not readable. */
export function headStoreOf(layout: WorkspaceLayout): () => Buffer | null {
  return () => {
    const placement = layout.placement;
    if (!placement) return null;
    try {
      const file = committedStore(placement.location.commonDir, 'HEAD', placement.inRepository);
      return file.handoffs.length ? Buffer.from(JSON.stringify(file, null, 2) + '\n') : null;
    } catch {
      return null;
    }
  };
}

/**
 * Under the lock, before a write: the committed store's records the home lacks or holds at a lower rev join the
 * home's record (a colliding handoff_id is renumbered, the old one kept in previous_ids). Returns what joined, or
 * [] when nothing did; the home's file is rewritten only then.
 */
export function joinCommitted(layout: WorkspaceLayout, archivedRev: (uid: string) => number | undefined, now: Date): string[] {
  const committedFile = layout.followStoreFile;
  if (!committedFile) return [];
  if (!committedChanged(layout)) return [];
  const theirsBytes = regularStoreBytes(committedFile);
  const theirs = theirsBytes && parseStore(theirsBytes);
  const oursBytes = regularStoreBytes(layout.handoffsFile);
  const ours = oursBytes && parseStore(oursBytes);
  // A committed store mid-merge (conflict markers) or invalid is not a source: it is left to the merge driver or a human.
  if (!theirs || !ours || theirs.version > ours.version) return [];
  const joined = joinRecords(ours, theirs, archivedRev, now);
  if (joined.names.length) writeFileAtomic(layout.handoffsFile, JSON.stringify(joined.file, null, 2) + '\n');
  rememberCommitted(layout);
  return joined.names;
}

function identity(h: Handoff): string {
  return h.uid ?? `id:${h.handoff_id}`;
}

/**
 * Pure: `ours` with `theirs`' records it lacks or holds at a lower rev. A record of the same uid at a higher rev
 * replaces ours, its handoff_id included (a merge driver renumbered it there); then records ours lacks join, a
 * colliding handoff_id renumbered (the old one kept in previous_ids).
 */
export function joinRecords(
  ours: HandoffsFile,
  theirs: HandoffsFile,
  archivedRev: (uid: string) => number | undefined,
  now: Date,
): { file: HandoffsFile; names: string[] } {
  const byIdentity = new Map(ours.handoffs.map((h, i) => [identity(h), i]));
  const handoffs = ours.handoffs.slice();
  const names: string[] = [];
  const added: Handoff[] = [];
  for (const t of theirs.handoffs) {
    const at = byIdentity.get(identity(t));
    if (at === undefined) {
      const archived = t.uid ? archivedRev(t.uid) : undefined;
      // Archived here since: only a later copy (a merge brought it back, with its conflicts) joins again.
      if (archived === undefined || (t.rev ?? 0) > archived) added.push(t);
    } else if ((t.rev ?? 0) > (handoffs[at].rev ?? 0)) {
      handoffs[at] = t;
      names.push(t.handoff_id);
    }
  }
  const taken = new Set(handoffs.map((h) => h.handoff_id));
  const ids = new HandoffIdAllocator([...handoffs, ...theirs.handoffs], laterId(ours.id_high_water, theirs.id_high_water));
  for (const t of added) {
    let record = t;
    if (taken.has(t.handoff_id)) {
      const id = ids.next(now);
      record = { ...withPreviousId(t, t.handoff_id), handoff_id: id };
    }
    taken.add(record.handoff_id);
    handoffs.push(record);
    names.push(record.handoff_id);
  }
  const highWater = laterId(ours.id_high_water, theirs.id_high_water);
  return { file: { ...ours, handoffs, ...(highWater ? { id_high_water: highWater } : {}) }, names };
}

/** True when the main worktree's committed store changed since the home last joined, seeded from or wrote it. */
export function committedChanged(layout: WorkspaceLayout): boolean {
  if (!layout.followStoreFile || !fs.existsSync(layout.handoffsFile)) return false;
  const key = fileStatKeyOf(layout.followStoreFile);
  if (key === null) return false;
  try {
    return fs.readFileSync(path.join(layout.recordDir, SEEN_COMMITTED), 'utf8') !== key;
  } catch {
    return true;
  }
}

/**
 * After a write: the main worktree's committed store follows the record, while that worktree's checkout carries
 * AgentSync (its .agentsync.json or store is there; a branch from before AgentSync is left alone, untracked files
 * would stop `git checkout` back).
 */
export function followRecord(layout: WorkspaceLayout, chunks: readonly Buffer[]): void {
  const file = layout.followStoreFile;
  const main = layout.placement?.mainWorkspace;
  if (!file || !main) return;
  if (!fs.existsSync(path.join(main, '.agentsync.json')) && !fs.existsSync(file)) return;
  if (!sameBytes(file, chunks)) {
    ensureSafeDirectory(main, path.dirname(file));
    writeFileAtomic(file, [...chunks], { durable: false });
  }
  rememberCommitted(layout);
}

/**
 * Whether `file` holds exactly `chunks` concatenated. A file of another size is not read (the common case: a write
 * changes the record's length), and the chunks are never joined into one 1 MB buffer to compare.
 */
function sameBytes(file: string, chunks: readonly Buffer[]): boolean {
  let size = 0;
  for (const c of chunks) size += c.length;
  try {
    if (fs.lstatSync(file).size !== size) return false;
  } catch {
    return false;
  }
  const now = regularStoreBytes(file);
  if (!now || now.length !== size) return false;
  let at = 0;
  for (const c of chunks) {
    if (!now.subarray(at, at + c.length).equals(c)) return false;
    at += c.length;
  }
  return true;
}
