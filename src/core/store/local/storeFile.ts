// This clone's handoffs.json and what is known of it in memory: the snapshot of the bytes last read or written (keyed
// by the file's stat, disk/fileStatKey.ts), the records as last parsed (a write reuses the tracker's rendering from
// them, derivedFiles.ts), and a large store read ahead of its first read. One place, so the three never disagree.
import * as fs from 'node:fs';
import { ArchiveReader } from '../archive/archiveReader';
import { ActionError } from '../../domain/errors';
import { assertSafeDirectory } from '../../disk/safeDirectory';
import { fileStatKey, fileStatKeyOf } from '../../disk/fileStatKey';
import { gitTracks } from '../../git/gitActivity';
import { assertPlacementUsable, headStoreOf } from '../homeRecord';
import { seedHome } from '../homeSeed';
import type { Handoff, HandoffsFile } from '../../domain/handoffSchema';
import type { WorkspaceLayout } from '../../workspace/workspaceLayout';
import { StoreSnapshot } from '../storeSnapshot';
import { isStamped, stampedDigests, stampStore, type StatStamp } from '../storeStamp';
import { digestsOfChunks, storeHashOfBytes, storeHashOfChunks, storeHashOfDigests } from '../storeHash';
import { splitStoreBytes } from '../storeFormat';
import { checkStoreInSlices } from '../slicedStoreCheck';
import { MAX_STORE_BYTES, storeFileRefusal } from '../storeReader';
import { storePathIn } from '../committedStore';

/** About 2,000 handoffs: checking a store this size whole takes tens of milliseconds on a slow machine. */
export const LARGE_STORE_BYTES = 2 * 1024 * 1024;

/** The key of a store that does not exist. */
export const MISSING = 'missing';

export class StoreFile {
  private cached: { key: string; snapshot: StoreSnapshot; hash: string | null } | null = null;
  /** The stat key of the store as the current batch read it, compared right before the rename. */
  private loaded = MISSING;
  /** The store as last parsed from disk, until a write uses it to reuse the tracker's rendering (derivedFiles.ts). */
  private freshlyLoaded: { hash: string; handoffs: readonly Handoff[] } | null = null;
  /**
   * A large store read (and, unless stamped, checked in slices) before its first read (prepareFirstRead): the read
   * of the same bytes takes its hash, parts and checked records instead of computing them again.
   */
  private preparedFirstRead: { bytes: Buffer; hash: string; chunks: readonly Buffer[] | null; checked: HandoffsFile | null } | null = null;

  constructor(private readonly layout: WorkspaceLayout) {}

  /** True when the next read would be the first, of a store large enough that checking it whole holds the thread. */
  firstReadIsLarge(): boolean {
    if (this.cached) return false;
    const st = fs.lstatSync(this.layout.handoffsFile, { throwIfNoEntry: false });
    return !!st && st.isFile() && st.size >= LARGE_STORE_BYTES && st.size <= MAX_STORE_BYTES;
  }

  /**
   * Checks the store a slice at a time (slicedStoreCheck.ts), pausing with `pause` between slices, so that the next
   * read of exactly those bytes only indexes them. A stamped store needs no check; a store that fails, or changes
   * in between, is read and checked whole by that next read, which says what is wrong.
   */
  async prepareFirstRead(pause: () => Promise<void>): Promise<void> {
    await pause(); // the caller's turn ends first: it shows that the store is being checked
    const bytes = fs.readFileSync(this.layout.handoffsFile);
    const { hash, chunks } = storeHashOfBytes(bytes);
    let checked: HandoffsFile | null = null;
    if (!isStamped(this.layout.validatedStampFile, hash)) {
      await pause();
      checked = await checkStoreInSlices(bytes.toString('utf8'), pause);
    }
    this.preparedFirstRead = { bytes, hash, chunks, checked };
  }

  /** True when the store file's stat differs from the one the last load read (it was being written meanwhile). */
  changedSinceLoad(): boolean {
    return fileStatKeyOf(this.layout.handoffsFile) !== this.loaded;
  }

  /** The store as it is on disk: the snapshot in memory when the file's stat key is the one it was read under. */
  load(): StoreSnapshot {
    assertPlacementUsable(this.layout, false);
    // Even a read writes in the record's folder (the reads log, the validated-store stamp): a symlinked one, or a
    // symlinked .agentsync/, is refused here.
    assertSafeDirectory(this.layout.root, this.layout.dataDir);
    assertSafeDirectory(this.layout.recordBase, this.layout.recordDir);
    let st: fs.BigIntStats;
    try {
      st = fs.lstatSync(this.layout.handoffsFile, { bigint: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // First use of this clone's home: seeded from the main worktree's committed store (said once, localAuthority.ts).
      if (seedHome(this.layout, headStoreOf(this.layout))) return this.load();
      if (this.expected()) {
        throw new ActionError(
          'store_missing',
          '.agentsync/handoffs.json is missing, but this workspace had a store. Restore it ' +
            '(git checkout -- .agentsync/handoffs.json) and retry, or run `agentsync init` to start an empty one; nothing was changed.',
        );
      }
      this.loaded = MISSING;
      if (this.cached?.key !== MISSING) this.cached = { key: MISSING, snapshot: StoreSnapshot.empty(), hash: null };
      return this.cached.snapshot;
    }
    const refusal = storeFileRefusal(st);
    if (refusal) throw refusal;
    const key = fileStatKey(st);
    this.loaded = key;
    if (this.cached?.key === key) return this.cached.snapshot;
    const bytes = fs.readFileSync(this.layout.handoffsFile);
    // The stat of exactly these bytes: the file was not replaced or written to while it was read.
    const stat = fileStatKeyOf(this.layout.handoffsFile) === key ? key : null;
    // Read ahead of time (prepareFirstRead) and unchanged since: its hash, parts and check stand.
    const prepared = this.preparedFirstRead?.bytes.equals(bytes) ? this.preparedFirstRead : null;
    this.preparedFirstRead = null;
    const parts = prepared ? prepared.chunks : splitStoreBytes(bytes);
    const byStat = prepared ? null : this.stampedByStat(stat, parts);
    const { hash, chunks } = prepared ?? byStat ?? (parts ? { hash: storeHashOfChunks(parts), chunks: parts } : storeHashOfBytes(bytes));
    const previous = this.previous();
    // The same bytes under a new stat (touched, or written again unchanged): the snapshot in memory is still the file.
    if (previous && this.cached?.hash === hash) {
      this.cached = { key, snapshot: previous, hash };
      return previous;
    }
    const checked = prepared?.checked ?? null;
    const trusted = !checked && (!!byStat || isStamped(this.layout.validatedStampFile, hash));
    const snapshot = checked ? StoreSnapshot.fromChecked(checked, chunks) : StoreSnapshot.parse(bytes, trusted, { previous, chunks });
    // The archive proves or refutes the file's high-water mark when a day's ids seem used up (handoffIds.ts).
    snapshot.archivedHighest = (day) => new ArchiveReader(this.layout).highestOfDay(day);
    // Checked now, or vouched for by the hash alone: the stamp records this stat, so the next process hashes nothing.
    const digests = stat && chunks ? digestsOfChunks(chunks) : null;
    if (!byStat && (!trusted || digests)) stampQuietly(this.layout.validatedStampFile, hash, digests && { stat: stat!, digests });
    this.cached = { key, snapshot, hash };
    this.freshlyLoaded = { hash, handoffs: snapshot.handoffs.slice() };
    return snapshot;
  }

  /** The hash of the store as last loaded, or null when there is none. */
  hash(): string | null {
    if (!this.cached || this.cached.key === MISSING) return null;
    this.cached.hash ??= storeHashOfBytes(fs.readFileSync(this.layout.handoffsFile)).hash;
    return this.cached.hash;
  }

  /** The hash of handoffs.json as it is now on disk, or null when there is none (or it cannot be read). */
  hashOnDisk(): string | null {
    try {
      this.load();
      return this.hash();
    } catch {
      return null;
    }
  }

  /** The last snapshot read or written, whose records need no second check when other bytes hold them. */
  previous(): StoreSnapshot | undefined {
    return this.cached && this.cached.key !== MISSING ? this.cached.snapshot : undefined;
  }

  /** The stat key the current batch read the store under. */
  loadedKey(): string {
    return this.loaded;
  }

  /** The stat key of the file now. */
  keyNow(): string {
    return fileStatKeyOf(this.layout.handoffsFile) ?? MISSING;
  }

  /** The records as last parsed from disk, once: a write that follows reuses the tracker's rendering of them. */
  takeFreshlyLoaded(): { hash: string; handoffs: readonly Handoff[] } | undefined {
    const loaded = this.freshlyLoaded ?? undefined;
    this.freshlyLoaded = null;
    return loaded;
  }

  /** The file now holds `snapshot` (just renamed into place): the next read of the same stat reads nothing. */
  wrote(snapshot: StoreSnapshot, hash: string): void {
    const key = this.keyNow();
    this.cached = { key, snapshot, hash };
    this.loaded = key;
  }

  /** Whatever is in memory may not be on disk: the next read reads the file. */
  forget(): void {
    this.cached = null;
  }

  /**
   * True when this workspace had a store (this machine wrote one, or git tracks it): a missing one is then git's
   * unlink-then-write gap or a deletion, never an empty store (writing one would replace every record on the next checkout).
   */
  expected(): boolean {
    return (
      isRegularFile(this.layout.validatedStampFile) ||
      isRegularFile(this.layout.stateFile) ||
      gitTracks(this.layout.committedRoot, storePathIn(''))
    );
  }

  /** True when handoffs.json is a regular file now (a branch from before AgentSync has none). */
  exists(): boolean {
    return isRegularFile(this.layout.handoffsFile);
  }

  /**
   * The store's hash and parts without hashing them, when the stamp records exactly this stat with its parts' digests
   * (storeStamp.ts); null otherwise (then the bytes are hashed, and the stamp checked against that hash).
   */
  private stampedByStat(stat: string | null, chunks: readonly Buffer[] | null): { hash: string; chunks: readonly Buffer[] } | null {
    if (!stat || !chunks) return null;
    const digests = stampedDigests(this.layout.validatedStampFile, stat, chunks.length);
    return digests ? { hash: storeHashOfDigests(chunks, digests), chunks } : null;
  }
}

/**
 * A store just checked record by record is stamped, so the next process (a window reloaded, an agent's next CLI call)
 * skips the check until the bytes change. Reads take no lock: a stamp that loses a race with a writer's names bytes
 * no longer there and matches nothing, the safe side. Silent, because a read-only checkout cannot keep one.
 */
function stampQuietly(file: string, hash: string, stat: StatStamp | null): void {
  try {
    stampStore(file, hash, stat);
  } catch {
    // read-only folder or no key: the next read checks again
  }
}

export function isRegularFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}
