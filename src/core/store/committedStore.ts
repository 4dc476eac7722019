// The store as one commit holds it (docs/agentsync-documentation.md, "Merging with git"): git's merge drivers run
// before git writes the work tree, so a driver that needs another version of the store reads it from git's objects,
// through here, with the schema and size limit of the store's own read.
import * as path from 'node:path';
import { describeIssues, handoffsFileSchema, type HandoffsFile } from '../domain/handoffSchema';
import { runGit } from '../git/gitCommand';
import { WorkspaceLayout } from '../workspace/workspaceLayout';
import { MAX_STORE_BYTES } from './storeLimits';

/** The store of a commit that has none: no handoffs there. */
export const EMPTY_STORE: HandoffsFile = { version: 1, handoffs: [] };

/** The store's path inside a workspace, posix (`.agentsync/handoffs.json`). */
function storeInWorkspace(): string {
  const layout = new WorkspaceLayout(path.sep);
  return path.relative(layout.root, layout.handoffsFile).split(path.sep).join('/');
}

/** The store's path in the repository for the workspace folder `workspaceDir` (posix, '' or '.' at its top). */
export function storePathIn(workspaceDir: string): string {
  return path.posix.join(workspaceDir || '.', storeInWorkspace());
}

/** True when the repository path `rel` (posix) is a workspace's store. */
export function isStorePath(rel: string): boolean {
  const store = storeInWorkspace();
  return rel === store || rel.endsWith(`/${store}`);
}

/**
 * The store of the workspace folder `workspaceDir` as commit `rev` holds it; the empty store when that commit has
 * none. Throws, naming the version, when it is not JSON, over the size limit or not a valid store.
 */
export function committedStore(root: string, rev: string, workspaceDir: string): HandoffsFile {
  const file = storePathIn(workspaceDir);
  const r = runGit(root, ['cat-file', 'blob', `${rev}:${file}`]);
  if (!r.ok) return EMPTY_STORE; // not in that version: no handoffs there
  if (Buffer.byteLength(r.stdout) > MAX_STORE_BYTES) throw new Error(`${rev}:${file} is over the ${MAX_STORE_BYTES}-byte limit of a store`);
  const parsed = handoffsFileSchema.safeParse(JSON.parse(r.stdout));
  if (!parsed.success) throw new Error(`${rev}:${file} does not match the handoffs.json schema: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
