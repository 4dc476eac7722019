// A tree format's ledger stays bounded (docs/contract.md §13): a write that adds a ledger answer also removes the answers in
// the same leaf folder (ledger/<a>/<b>/<c>/) that are older than LEDGER_ANSWER_DAYS. The leaf's tree is rewritten by
// that write anyway, so the pruning adds no tree object and no byte to what the write pushes; the few answers of one
// leaf are read through the batch's cat-file conversation. Answers are spread evenly over the 4,096 leaves, so each
// leaf is written again, and pruned, in proportion to the writes: the ledger holds about a retention period's answers
// plus one per leaf. An answer removed here is still found from the request markers of the records' histories.
import type { GitObjectSession } from '../../git/gitObjectSession';
import { treeEntries } from '../../git/gitObjectSession';
import type { TreeChange } from './sharedTreeWriter';

/** How long a ledger answer is kept for a retry of its request id on any clone. */
export const LEDGER_ANSWER_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
const LEAF_MAX = 64 * 1024;
const ANSWER_MAX = 1024 * 1024;

/** The answer's time (its response's `timestamp`), or null when it has none this reader can date. */
function answeredAt(bytes: Buffer): number | null {
  try {
    const entry = JSON.parse(bytes.toString('utf8')) as { response?: { timestamp?: unknown } };
    const t = typeof entry.response?.timestamp === 'string' ? Date.parse(entry.response.timestamp) : NaN;
    return Number.isFinite(t) ? t : null;
  } catch {
    return null;
  }
}

/**
 * Removals, to add to `changes` (a tree format's write on top of `commit`): the answers in the leaves `changes` adds an
 * answer to, answered before `now` less the retention. An answer that cannot be dated is kept.
 */
export async function expiredLedgerAnswers(
  session: GitObjectSession,
  commit: string,
  changes: readonly TreeChange[],
  now: Date,
): Promise<TreeChange[]> {
  const written = new Set(changes.filter((c) => c.path.startsWith('ledger/')).map((c) => c.path));
  const leaves = [...new Set([...written].map((p) => p.slice(0, p.lastIndexOf('/'))))];
  if (leaves.length === 0) return [];
  const before = now.getTime() - LEDGER_ANSWER_DAYS * DAY_MS;
  const trees = await session.get(
    leaves.map((l) => `${commit}:${l}`),
    LEAF_MAX,
  );
  const paths: string[] = [];
  const oids: string[] = [];
  trees.forEach((t, i) => {
    if (t?.type !== 'tree') return;
    for (const e of treeEntries(t.data, commit.length / 2)) {
      const p = `${leaves[i]}/${e.name}`;
      if (written.has(p) || e.mode !== '100644') continue;
      paths.push(p);
      oids.push(e.oid);
    }
  });
  const answers = oids.length ? await session.get(oids, ANSWER_MAX) : [];
  return paths.flatMap((p, i) => {
    const b = answers[i];
    const at = b?.type === 'blob' ? answeredAt(b.data) : null;
    return at !== null && at < before ? [{ path: p, data: null }] : [];
  });
}
