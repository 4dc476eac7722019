// This clone's consent to push to the remote and ref a committed `sync` section names (docs/contract.md §13): the
// section comes with the repository, so it may choose where this machine pushes only once the local user agreed
// (`agentsync sync --enable`, or Allow in the editor). Like `agentsync trust` (commandConsent.ts) the consent is kept per
// user OUTSIDE the repository, keyed by the workspace's real path in the main worktree (every worktree of a clone shares
// its home and sync.json, docs/contract.md §14, so one consent serves them all), the remote's name and the ref: a clone
// never carries it, and a changed remote or ref asks again.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { ActionError } from '../domain/errors';
import { trustFilePath } from './commandConsent';
import { placeWorkspace } from './workspaceHome';

interface ConsentEntry {
  remote: string;
  ref: string;
  at: string;
}

interface ConsentFile {
  version: 1;
  workspaces: Record<string, ConsentEntry[]>;
}

const MAX_FILE_BYTES = 5_000_000;

/** `AGENTSYNC_SYNC_CONSENT_FILE`, else `sync-consent.json` beside the trust records (`~/.config/agentsync/`). */
export function syncConsentFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AGENTSYNC_SYNC_CONSENT_FILE) return path.resolve(os.homedir(), env.AGENTSYNC_SYNC_CONSENT_FILE);
  return path.join(path.dirname(trustFilePath(env)), 'sync-consent.json');
}

/** The key a consent is kept under: the workspace in the main worktree (a bare clone: its home), else its real path. */
function realWorkspace(root: string): string {
  const placement = placeWorkspace(root);
  if (placement !== null && !('problem' in placement)) return placement.mainWorkspace ?? placement.home;
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

function readConsent(file: string): ConsentFile {
  const empty: ConsentFile = { version: 1, workspaces: Object.create(null) as Record<string, ConsentEntry[]> };
  try {
    const st = fs.lstatSync(file);
    // A symlink or oversized file is not ours: nothing was agreed (it fails closed).
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return empty;
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { workspaces?: Record<string, unknown> };
    for (const [k, v] of Object.entries(raw?.workspaces ?? {})) {
      if (!Array.isArray(v)) continue;
      const entries = (v as unknown[]).filter((e): e is ConsentEntry => {
        const c = e as Partial<ConsentEntry> | null;
        return typeof c === 'object' && c !== null && typeof c.remote === 'string' && typeof c.ref === 'string';
      });
      if (entries.length) empty.workspaces[k] = entries;
    }
  } catch {
    // missing or not JSON: nothing was agreed
  }
  return empty;
}

/** Whether the local user agreed that this workspace's writes go to `remote`'s `ref`. */
export function hasSyncConsent(root: string, remote: string, ref: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const entries = readConsent(syncConsentFile(env)).workspaces[realWorkspace(root)] ?? [];
  return entries.some((e) => e.remote === remote && e.ref === ref);
}

/** Records the local user's consent for exactly this remote and ref (earlier ones for this workspace are replaced). */
export function grantSyncConsent(
  root: string,
  remote: string,
  ref: string,
  now = new Date(),
  env: NodeJS.ProcessEnv = process.env,
): string {
  const file = syncConsentFile(env);
  const data = readConsent(file);
  data.workspaces[realWorkspace(root)] = [{ remote, ref, at: now.toISOString() }];
  writeConsent(file, data);
  return file;
}

/** Withdraws this workspace's consent; true when there was one. */
export function revokeSyncConsent(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = syncConsentFile(env);
  const data = readConsent(file);
  const key = realWorkspace(root);
  if (!data.workspaces[key]) return false;
  delete data.workspaces[key];
  writeConsent(file, data);
  return true;
}

function writeConsent(file: string, data: ConsentFile): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.lstatSync(dir).isDirectory()) {
    throw new ActionError(
      'store_unsafe',
      `${dir} is not a folder (a symlink or file); AgentSync keeps its consent records there. Replace it with a folder.`,
    );
  }
  writeFileAtomic(file, JSON.stringify(data, null, 2) + '\n');
}

/** The refusal of a write while this clone has not agreed to the committed `sync` section's remote and ref. */
export function syncNotConsented(root: string, remote: string, ref: string): ActionError {
  return new ActionError(
    'sync_not_consented',
    `.agentsync.json turns sync on: writes would be pushed to ${ref} on the git remote "${remote}" of this clone. A committed ` +
      'file does not choose where this machine pushes until you agree: review it, then run `agentsync sync --enable` ' +
      `(in ${realWorkspace(root)}), or Allow in the editor. Nothing was changed; reads answer from what this clone last fetched.`,
    { sync: { remote, ref }, workspace: realWorkspace(root) },
  );
}
