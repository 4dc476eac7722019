// A branch cannot carry requests (docs/contract.md §8): a request file git tracks came with a checkout, a pull or a
// worktree, written by whoever made that commit, never by an agent of this checkout. Such a file is never acted on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitBusy, gitIndexLockPath } from '../git/gitActivity';
import { runGit } from '../git/gitCommand';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import type { Claim, DropZonePaths } from './dropZoneClaims';

/** The request files git tracks, by path relative to the workspace root (`/`-separated), or 'busy' while git writes. */
export type TrackedRequests = ReadonlySet<string> | 'busy';

const relative = (root: string, p: string): string => path.relative(root, p).split(path.sep).join('/');

function indexKey(lock: string | null): string | null {
  if (!lock) return null;
  try {
    const st = fs.statSync(lock.slice(0, -'.lock'.length));
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  } catch {
    return null;
  }
}

/**
 * What git's index lists under the drop zone (`request.json`, `requests/`), asked once per scan. 'busy' while a
 * checkout, merge or pull may be writing files it has not yet put in the index (its index.lock is held, or the index
 * changed while we asked): the scan leaves every request for the next one. Outside git (or when git cannot answer,
 * e.g. not installed) nothing is tracked.
 */
export function trackedRequestFiles(root: string, requestFile: string, requestsDir: string): TrackedRequests {
  const lock = gitIndexLockPath(root);
  if (gitBusy(lock)) return 'busy';
  const before = indexKey(lock);
  let listed: string;
  try {
    const r = runGit(root, ['ls-files', '-z', '--', relative(root, requestFile), relative(root, requestsDir)]);
    listed = r.ok ? r.stdout : '';
  } catch {
    listed = '';
  }
  if (gitBusy(lock) || indexKey(lock) !== before) return 'busy';
  return new Set(listed.split('\0').filter(Boolean));
}

function hasEntries(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** trackedRequestFiles, asked only when something waits (a rescan of an empty drop zone runs no git). */
export function trackedWaiting(layout: WorkspaceLayout, paths: DropZonePaths, waiting: boolean, recover: boolean): TrackedRequests {
  if (!waiting && !(recover && hasEntries(paths.inflightDir))) return new Set();
  return trackedRequestFiles(layout.root, layout.requestFile, layout.requestsDir);
}

/**
 * Whether a claim's request is one git tracks: by the name it was written under, or, taken over from a processor that
 * stopped, also by a claim name committed in requests/.inflight/ itself.
 */
export function isTrackedClaim(c: Claim, tracked: ReadonlySet<string>, layout: WorkspaceLayout, paths: DropZonePaths): boolean {
  if (tracked.size === 0) return false;
  const source = c.kind === 's' ? layout.requestFile : path.join(layout.requestsDir, c.original);
  if (tracked.has(relative(layout.root, source))) return true;
  const inflight = relative(layout.root, paths.inflightDir) + '/';
  return c.recovered && [...tracked].some((t) => t.startsWith(inflight) && t.includes(c.ulid));
}
