// Reads a shared-state commit in either format through one `git cat-file --batch` conversation (docs/contract.md
// §13): format 1 (0.4.0's: handoffs.json and ledger.jsonl) whole; formats 2 and 3 (sharedTreeLayout.ts) only what a
// write needs: the open records (the records/ tree walked level by level), meta.json, and the ledger answers of the
// request ids the batch carries. Archived records are read by uid, only when asked. Anything else on the ref is
// refused store_invalid, a newer format store_too_new, an object over its cap too_large, before its bytes are read.
import { ActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { ObjectTooLarge, treeEntries, type GitObject, type GitObjectSession } from '../../git/gitObjectSession';
import type { LedgerEntry } from '../storeTransaction';
import { MAX_STORE_BYTES } from '../storeLimits';
import { ledgerProblem } from './sharedLedger';
import { checkSizes, notSharedState, notState, sharedBlobs, type SharedBlobs } from './sharedStateTree';
import {
  areaLevels,
  FORMAT_FILE,
  keyOfFile,
  ledgerPath,
  META_FILE,
  NEWEST_SHARED_FORMAT,
  parsePath,
  recordPath,
  TREE_FORMAT_ROOT,
  type TreeFormat,
  type UidArea,
} from './sharedTreeLayout';

/** What a commit in a tree format holds that a write needs. */
export interface TreeView {
  format: TreeFormat;
  /** The open records' bytes (storeFormat.recordBytes), by uid. */
  records: Map<string, Buffer>;
  highWater: string | undefined;
  /** The ledger answers found for the request ids asked for. */
  ledger: Map<string, LedgerEntry>;
}

export type SharedView = { format: 1; blobs: SharedBlobs } | TreeView;

const COMMIT_MAX = 1024 * 1024;
const TREE_MAX = 64 * 1024;
const BLOB_MAX = 1024 * 1024;

/**
 * The commit `name` names (an id, or a ref of this clone), and what it holds; null when there is no such commit.
 * `wanted`: the request ids whose ledger answers a tree format's read looks up.
 */
export async function readSharedView(
  session: GitObjectSession,
  config: SyncConfig,
  name: string,
  wanted: readonly string[],
): Promise<{ commit: string; view: SharedView } | null> {
  const [commit] = await sized(session, config, name, [name], COMMIT_MAX);
  if (!commit) return null;
  const id = commit.oid;
  const hashBytes = id.length / 2;
  if (commit.type !== 'commit') throw notState(config, id, `it names a ${commit.type}, not a commit`);
  const treeId = /^tree ([0-9a-f]+)$/m.exec(commit.data.toString('utf8'))?.[1];
  const [tree] = treeId ? await sized(session, config, id, [treeId], TREE_MAX) : [null];
  const root = tree ? treeEntries(tree.data, hashBytes) : [];
  if (!root.some((e) => e.name === FORMAT_FILE)) {
    // Format 1: the checks and caps of 0.4.0's reader (sharedStateTree.ts), on the objects this session read.
    const wrong = notSharedState(commit, tree, hashBytes);
    if (wrong) throw notState(config, id, wrong);
    const blobs = await sized(session, config, id, [`${id}:handoffs.json`, `${id}:ledger.jsonl`], MAX_STORE_BYTES);
    return { commit: id, view: { format: 1, blobs: format1Blobs(commit, tree!, blobs, config, id) } };
  }
  return { commit: id, view: await readTreeFormat(session, config, id, root, wanted) };
}

async function readTreeFormat(
  session: GitObjectSession,
  config: SyncConfig,
  id: string,
  root: ReturnType<typeof treeEntries>,
  wanted: readonly string[],
): Promise<TreeView> {
  for (const e of root) {
    const kind = TREE_FORMAT_ROOT[e.name];
    if (!kind || (kind === 'blob' ? e.mode !== '100644' : e.mode !== '40000')) {
      throw notState(config, id, `its tree holds ${e.name} (mode ${e.mode}), which shared formats 2 and 3 do not`);
    }
  }
  const [marker] = await sized(session, config, id, [`${id}:${FORMAT_FILE}`], 64);
  const named = Number(marker?.data.toString('utf8').trim());
  if (!Number.isInteger(named) || named < 2) throw notState(config, id, `its ${FORMAT_FILE} file does not name a format`);
  if (named > NEWEST_SHARED_FORMAT) throw tooNew(config, id, named);
  const format = named as TreeFormat;
  const [meta] = await sized(session, config, id, [`${id}:${META_FILE}`], 64 * 1024);
  let highWater: string | undefined;
  try {
    const m = meta ? (JSON.parse(meta.data.toString('utf8')) as { id_high_water?: unknown }) : {};
    if (typeof m.id_high_water === 'string') highWater = m.id_high_water;
  } catch {
    throw notState(config, id, `its ${META_FILE} is not JSON`);
  }
  const records = new Map<string, Buffer>();
  const recordsTree = root.find((e) => e.name === 'records');
  const level = recordsTree ? await areaLeaves(session, config, id, 'records', recordsTree.oid, areaLevels('records', format)) : [];
  const blobs = await sized(
    session,
    config,
    id,
    level.map((l) => l.oid),
    BLOB_MAX,
  );
  let total = 0;
  blobs.forEach((b, i) => {
    const where = parsePath(level[i].path);
    if (!b || b.type !== 'blob' || !where || where.area !== 'records') {
      throw notState(config, id, `${level[i].path} is not a record of shared format ${format}`);
    }
    total += b.data.length;
    if (total > MAX_STORE_BYTES) throw tooLarge(config, id, `open records of over ${MAX_STORE_BYTES} bytes`);
    records.set(where.key, b.data);
  });
  return { format, records, highWater, ledger: await ledgerAnswers(session, config, id, wanted) };
}

/**
 * The entries of an area's tree (`oid`) and of the `levels` levels of fan-out below it: its blobs' paths and ids,
 * read level by level, one conversation a level; anything but a tree where a tree belongs is refused store_invalid.
 */
export async function areaLeaves(
  session: GitObjectSession,
  config: SyncConfig,
  id: string,
  area: string,
  oid: string,
  levels: number,
): Promise<{ path: string; oid: string }[]> {
  let level = [{ path: area, oid }];
  for (let depth = 0; depth <= levels && level.length; depth++) {
    const objects = await sized(
      session,
      config,
      id,
      level.map((l) => l.oid),
      TREE_MAX,
    );
    const next: { path: string; oid: string }[] = [];
    objects.forEach((o, i) => {
      if (!o || o.type !== 'tree') throw notState(config, id, `${level[i].path} is not a tree`);
      for (const e of treeEntries(o.data, id.length / 2)) next.push({ path: `${level[i].path}/${e.name}`, oid: e.oid });
    });
    level = next;
  }
  return level;
}

/**
 * Every record blob under `area` of commit `id` in tree format `format`, as its uid, path and object id (the upgrade
 * moves them by id, never reading their bytes); a path this layout does not make is refused store_invalid.
 */
export async function areaRecords(
  session: GitObjectSession,
  config: SyncConfig,
  id: string,
  area: 'records' | 'archive',
  format: TreeFormat,
): Promise<{ uid: string; path: string; oid: string }[]> {
  const [tree] = await sized(session, config, id, [`${id}:${area}`], TREE_MAX);
  if (!tree) return [];
  const leaves = await areaLeaves(session, config, id, area, tree.oid, areaLevels(area, format));
  return leaves.map((l) => {
    const uid = keyOfFile(l.path.slice(l.path.lastIndexOf('/') + 1));
    if (!uid || recordPath(area, uid, format) !== l.path)
      throw notState(config, id, `${l.path} is not a record of shared format ${format}`);
    return { uid, ...l };
  });
}

/** The ledger answers of `wanted` request ids in commit `id` of a tree format. */
export async function ledgerAnswers(
  session: GitObjectSession,
  config: SyncConfig,
  id: string,
  wanted: readonly string[],
): Promise<Map<string, LedgerEntry>> {
  const ids = [...new Set(wanted)];
  const found = await sized(
    session,
    config,
    id,
    ids.map((r) => `${id}:${ledgerPath(r)}`),
    BLOB_MAX,
  );
  const out = new Map<string, LedgerEntry>();
  found.forEach((b, i) => {
    if (!b) return;
    const problem = ledgerProblem(b.data.toString('utf8').trim());
    if (problem) throw notState(config, id, `${ledgerPath(ids[i])}: ${problem.replace(/^its ledger\.jsonl line 1 /, '')}`);
    const e = JSON.parse(b.data.toString('utf8')) as LedgerEntry;
    if (e.request_id === ids[i]) out.set(ids[i], e);
  });
  return out;
}

/** Which of `uids` commit `id`, in tree format `format`, holds under `area`: their bytes, by uid. */
export async function recordsByUid(
  session: GitObjectSession,
  config: SyncConfig,
  id: string,
  area: UidArea,
  uids: readonly string[],
  format: TreeFormat,
): Promise<Map<string, Buffer>> {
  const found = await sized(
    session,
    config,
    id,
    uids.map((u) => `${id}:${recordPath(area, u, format)}`),
    BLOB_MAX,
  );
  const out = new Map<string, Buffer>();
  found.forEach((b, i) => b?.type === 'blob' && out.set(uids[i], b.data));
  return out;
}

function format1Blobs(commit: GitObject, tree: GitObject, blobs: (GitObject | null)[], config: SyncConfig, id: string): SharedBlobs {
  // The same parse as 0.4.0's, fed the objects in its order: the commit, its tree, handoffs.json, ledger.jsonl.
  const line = (o: GitObject | null) => (o ? `${o.oid} ${o.type} ${o.data.length}\n` : 'x missing\n');
  checkSizes([commit, tree, ...blobs].map(line).join(''), config, id);
  const parts: Buffer[] = [];
  for (const o of [commit, tree, ...blobs]) {
    parts.push(Buffer.from(line(o)));
    if (o) parts.push(o.data, Buffer.from('\n'));
  }
  return sharedBlobs(Buffer.concat(parts), config, id);
}

/** session.get, an object over `max` refused too_large (its bytes never read). */
async function sized(
  session: GitObjectSession,
  config: SyncConfig,
  id: string,
  names: readonly string[],
  max: number,
): Promise<(GitObject | null)[]> {
  try {
    return await session.get(names, max);
  } catch (e) {
    if (e instanceof ObjectTooLarge)
      throw tooLarge(config, id, `${e.name_.replace(`${id}:`, '')} of ${e.size} bytes, over the ${e.max}-byte limit`);
    throw e;
  }
}

function tooLarge(config: SyncConfig, id: string, what: string): ActionError {
  const { remote, ref } = config;
  return new ActionError(
    'too_large',
    `${ref} on the git remote "${remote}" (${id}) holds ${what}; it was not read. Nothing was changed and nothing was ` +
      `pushed. Restore the ref by pushing a good shared-state commit: git push --force ${remote} <good-commit>:${ref}.`,
    { sync: { remote, ref, commit: id } },
  );
}

/** A shared state in a format newer than this build's (docs/contract.md §3): upgrade AgentSync, never an older state. */
export function tooNew(config: SyncConfig, id: string, format: number): ActionError {
  const { remote, ref } = config;
  return new ActionError(
    'store_too_new',
    `${ref} on the git remote "${remote}" (${id}) is in shared format ${format}, written by a newer AgentSync; this one ` +
      `reads up to format ${NEWEST_SHARED_FORMAT}. Upgrade AgentSync on this machine (every clone of the repository needs ` +
      'the newer version); nothing was changed and nothing was pushed.',
    { sync: { remote, ref, commit: id }, format, readable: NEWEST_SHARED_FORMAT },
  );
}
