// What git's merge drivers know about the two sides (docs/agentsync-documentation.md, "Merging with git"). git calls a
// driver with %O (the ancestor), %A (ours: the version checked out, which receives the result), %B (theirs) and %P
// (the path). Which side is already published depends on the command:
// - `git merge` / `git pull` (merge): ours is the local branch, theirs the commit merged in (the upstream of a pull).
//   git names that commit in a GITHEAD_<oid> variable, and only here.
// - `git rebase` / `git pull --rebase`: ours is HEAD, the upstream the local commits are replayed onto; theirs is
//   the local commit being replayed (the last `pick` of .git/rebase-merge/done).
// - cherry-pick, stash apply: ours is the current branch, theirs the commit picked or the stash.
// So the published side (whose ids stay) is theirs when there is a GITHEAD_ variable, else ours.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffSchema, type Handoff } from '../core/domain/handoffSchema';
import { runGit } from '../core/git/gitCommand';
import { parseArchiveLine } from '../core/store/archive/archiveLine';
import { monthOfId, monthOfUid } from '../core/store/archive/archiveMonth';
import type { MergeOptions } from '../core/domain/merge/mergeStores';
import { isStorePath } from '../core/store/committedStore';

export type Side = 'ours' | 'theirs';

/** The commit a `git merge` / `git pull` merges in, from its GITHEAD_<oid> variable; null for other commands. */
export function mergedInCommit(env: NodeJS.ProcessEnv): string | null {
  const oids = Object.keys(env)
    .map((k) => /^GITHEAD_([0-9a-f]{40,64})$/.exec(k)?.[1])
    .filter((x): x is string => !!x);
  return oids.length === 1 ? oids[0] : null;
}

/** The side whose ids were already answered to others: the upstream a `git pull` merges in, else HEAD. */
export function publishedSide(env: NodeJS.ProcessEnv): Side {
  return mergedInCommit(env) ? 'theirs' : 'ours';
}

/** The commit being replayed by a rebase (its last `pick`), or null outside a rebase. */
function replayedCommit(root: string): string | null {
  const where = runGit(root, ['rev-parse', '--git-path', 'rebase-merge/done']);
  if (!where.ok) return null;
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(root, where.stdout.trim()), 'utf8');
  } catch {
    return null;
  }
  const last = text.trim().split('\n').pop() ?? '';
  const m = /^(?:p|pick|r|reword|e|edit|s|squash|f|fixup)\s+([0-9a-f]{7,64})\b/.exec(last);
  if (!m) return null;
  const full = runGit(root, ['rev-parse', '--verify', '--quiet', `${m[1]}^{commit}`]);
  return full.ok ? full.stdout.trim() : null;
}

/** The commit whose tree is theirs (%B), when git says: the merged-in commit, or the commit a rebase replays. */
export function theirsCommit(root: string, env: NodeJS.ProcessEnv): string | null {
  return mergedInCommit(env) ?? replayedCommit(root);
}

/**
 * The archive (.agentsync/archive/YYYY-MM.jsonl) as one commit holds it, read from git's objects: git writes the work
 * tree only when the merge is done, so the other side's archive is never on disk while a driver runs. The files are
 * committed input: a line that is not a record the schema accepts is skipped.
 */
export class CommittedArchive {
  private readonly months = new Map<string, Record<string, unknown>[]>();

  constructor(
    private readonly root: string,
    private readonly commit: string,
    /** The workspace folder inside the repository ('' at its top), posix. */
    private readonly prefix: string,
  ) {}

  private month(month: string): Record<string, unknown>[] {
    let lines = this.months.get(month);
    if (!lines) {
      const file = path.posix.join(this.prefix, '.agentsync/archive', `${month}.jsonl`);
      const r = runGit(this.root, ['cat-file', 'blob', `${this.commit}:${file}`]);
      lines = r.ok
        ? r.stdout.split('\n').flatMap((l) => {
            const record = parseArchiveLine(l);
            return record ? [record] : [];
          })
        : [];
      this.months.set(month, lines);
    }
    return lines;
  }

  /** The archived record with this handoff_id or uid (by uid: in the month of its ULID), the highest rev. */
  find(ref: string): Handoff | undefined {
    const byId = monthOfId(ref);
    const month = byId ?? monthOfUid(ref);
    if (!month) return undefined;
    let best: Handoff | undefined;
    for (const raw of this.month(month)) {
      if ((byId ? raw.handoff_id : raw.uid) !== ref) continue;
      const checked = handoffSchema.safeParse(raw);
      if (checked.success && (!best || (checked.data.rev ?? 0) >= (best.rev ?? 0))) best = checked.data;
    }
    return best;
  }
}

/**
 * What mergeStores needs from git for this merge: which side is published, each side's archive by id (a side whose
 * commit is unknown is left out: its id_high_water stands for it), and the archived copy of a record one side
 * archived while the other changed it (from the work tree, then either side's commit).
 */
export function mergeContext(
  root: string,
  prefix: string,
  env: NodeJS.ProcessEnv,
  workTreeCopy: (h: Handoff) => Handoff | undefined = () => undefined,
): { options: MergeOptions; archivedCopy: (h: Handoff) => Handoff | undefined } {
  const theirs = theirsCommit(root, env);
  const archives: Partial<Record<Side, CommittedArchive>> = { ours: new CommittedArchive(root, 'HEAD', prefix) };
  if (theirs) archives.theirs = new CommittedArchive(root, theirs, prefix);
  const byId = (a: CommittedArchive) => (id: string) => a.find(id);
  const sameRecord = (h: Handoff, c: Handoff | undefined) => (c && (c.uid ?? c.handoff_id) === (h.uid ?? h.handoff_id) ? c : undefined);
  const fromCommit = (a: CommittedArchive | undefined, h: Handoff) =>
    a ? (sameRecord(h, a.find(h.handoff_id)) ?? (h.uid ? a.find(h.uid) : undefined)) : undefined;
  return {
    options: {
      published: publishedSide(env),
      archivedIdOn: {
        ours: byId(archives.ours!),
        ...(archives.theirs ? { theirs: byId(archives.theirs) } : {}),
      },
    },
    archivedCopy: (h) => workTreeCopy(h) ?? fromCommit(archives.theirs, h) ?? fromCommit(archives.ours, h),
  };
}

/** Why a driver was handed a file it must not merge, or null when `rel` is that file. */
export function wrongPath(rel: string, expected: 'store' | 'tracker', root: string): string | null {
  const p = rel.split(path.sep).join('/');
  if (expected === 'store') return isStorePath(p) ? null : `${p} is not a workspace's .agentsync/handoffs.json`;
  if (path.posix.basename(p) !== 'AgentTracker.md') return `${p} is not a workspace's AgentTracker.md`;
  const dir = path.resolve(root, path.posix.dirname(p));
  const isWorkspace = fs.existsSync(path.join(dir, '.agentsync.json')) || fs.existsSync(path.join(dir, '.agentsync'));
  return isWorkspace ? null : `${p} is not in an AgentSync workspace (no .agentsync.json or .agentsync/ beside it)`;
}
