// Which records a shared state archived since an earlier one (docs/contract.md §13): the `archive/` trees of the two
// commits compared level by level through the batch's cat-file conversation, descending only where they differ, so the
// cost follows what was archived in between, not the size of the archive.
import { treeEntries, type GitObject, type GitObjectSession } from '../../git/gitObjectSession';
import { areaLevels, FORMAT_FILE, keyOfFile, type TreeFormat } from './sharedTreeLayout';

const TREE_MAX = 64 * 1024;

/**
 * The uids whose archived blob `after` (in tree format `format`) adds or changes against `before`; none when `before`
 * is in another format (its paths are not comparable: an upgrade lay between them).
 */
export async function archivedSince(session: GitObjectSession, before: string, after: string, format: TreeFormat): Promise<string[]> {
  const hashBytes = after.length / 2;
  const [marker, was, now] = await session.get([`${before}:${FORMAT_FILE}`, `${before}:archive`, `${after}:archive`], TREE_MAX);
  if (marker?.data.toString('utf8').trim() !== String(format)) return [];
  if (now?.type !== 'tree' || was?.oid === now.oid) return [];
  let pairs: { was: GitObject | null; now: GitObject }[] = [{ was: was?.type === 'tree' ? was : null, now }];
  const levels = areaLevels('archive', format);
  for (let depth = 0; ; depth++) {
    const next: { was: string | null; now: string }[] = [];
    const uids: string[] = [];
    for (const p of pairs) {
      const old = new Map((p.was ? treeEntries(p.was.data, hashBytes) : []).map((e) => [e.name, e.oid]));
      for (const e of treeEntries(p.now.data, hashBytes)) {
        const o = old.get(e.name);
        if (o === e.oid) continue;
        if (depth < levels) {
          next.push({ was: o ?? null, now: e.oid });
          continue;
        }
        // A name this layout does not make names no record: skipped, so it cannot spoil the lookup of the others.
        const uid = keyOfFile(e.name);
        if (uid) uids.push(uid);
      }
    }
    if (depth === levels || next.length === 0) return uids;
    const objects = await session.get(
      next.flatMap((n) => (n.was ? [n.was, n.now] : [n.now])),
      TREE_MAX,
    );
    let at = 0;
    pairs = next.flatMap((n) => {
      const w = n.was ? objects[at++] : null;
      const o = objects[at++];
      return o?.type === 'tree' ? [{ was: w?.type === 'tree' ? w : null, now: o }] : [];
    });
  }
}
