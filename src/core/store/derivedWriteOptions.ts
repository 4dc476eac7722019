// How the files derived from handoffs.json are written: read by derivedFiles.ts and trackerFile.ts alike, so the
// tracker's writer does not import the module that calls it.
import type { Handoff } from '../domain/handoffSchema';

/** `beforeRename` lets the store skip the rename while git is replacing files (see gitActivity.ts). */
export interface DerivedWriteOptions {
  /** The SHA-256 of the store bytes these files are derived from, kept in state.json to tell when they are stale. */
  storeHash?: string;
  /**
   * The store as this process read it from disk, before the batch changed it: when state.json says the derived files
   * were written from exactly that store, the tracker's section is its rendering, and each block is reused.
   */
  loaded?: { hash: string; handoffs: readonly Handoff[] };
  beforeRename?: () => void;
}
