// `agentsync merge-tracker %O %A %B %P`: git's merge driver for AgentTracker.md (docs/agentsync-documentation.md,
// "Merging with git"). The humans' text merges with `git merge-file`; the `## Agent Handoffs` section is rendered
// from the merge of the three versions of .agentsync/handoffs.json, so a `git pull` never stops on it.
// git runs drivers in an order of its own and writes the work tree only at the end, so the store is not read from
// the work tree: the driver merges the store's three committed versions itself (the same mergeStores).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/disk/atomicFile';
import type { Handoff } from '../core/domain/handoffSchema';
import { committedStore, EMPTY_STORE } from '../core/store/committedStore';
import { mergeStores } from '../core/domain/merge/mergeStores';
import { mergeTracker, type TextMerge } from '../core/store/trackerMerge';
import { UsageError } from './cliContext';
import { runGit } from '../core/git/gitCommand';
import type { Verb } from './handoffVerbs';
import { mergeContext, mergedInCommit, wrongPath } from './mergeSides';

/** The merged store's records, or why they could not be worked out. */
function mergedHandoffs(root: string, trackerPath: string): { handoffs: Handoff[] } | { why: string } {
  const theirs = mergedInCommit(process.env);
  if (!theirs) return { why: 'this is not a `git merge`/`git pull` (no GITHEAD_ variable), so the other side of the store is unknown' };
  const base = runGit(root, ['merge-base', 'HEAD', theirs]);
  const dir = path.posix.dirname(trackerPath.split(path.sep).join('/'));
  const workspaceDir = dir === '.' ? '' : dir;
  try {
    // The same merge as the handoffs.json driver's (which side keeps its ids, the archives), so the section matches it.
    const sides = mergeContext(root, workspaceDir, process.env);
    const merged = mergeStores(
      base.ok ? committedStore(root, base.stdout.trim(), workspaceDir) : EMPTY_STORE,
      committedStore(root, 'HEAD', workspaceDir),
      committedStore(root, theirs, workspaceDir),
      new Date(),
      sides.archivedCopy,
      sides.options,
    );
    return { handoffs: merged.file.handoffs };
  } catch (e) {
    return { why: (e as Error).message };
  }
}

/** `git merge-file` on temp copies: the repository's files are never touched by it. */
function gitTextMerge(root: string): TextMerge {
  return (base, ours, theirs) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-tracker-'));
    try {
      const files = (['ours', 'base', 'theirs'] as const).map((name) => path.join(dir, name));
      fs.writeFileSync(files[0], ours);
      fs.writeFileSync(files[1], base);
      fs.writeFileSync(files[2], theirs);
      const r = runGit(root, ['merge-file', '-p', '-L', 'ours', '-L', 'base', '-L', 'theirs', ...files]);
      if (r.status === null || r.status < 0 || r.status > 127) throw new Error(`git merge-file failed: ${r.out}`);
      return { text: r.stdout, conflicted: r.status !== 0 };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

export const trackerMergeVerb: Verb = {
  usage: '<base %O> <ours %A> <theirs %B> <path %P>',
  summary:
    "git merge driver for AgentTracker.md (registered by `agentsync init --git`): merges the humans' text, renders the handoffs section from the merged store",
  options: {},
  workspace: 'found-or-here',
  run: (ctx, _values, pos) => {
    if (pos.length !== 4)
      throw new UsageError('expected four arguments: the base (%O), ours (%A, receives the result), theirs (%B) and the path (%P)');
    const [basePath, oursPath, theirsPath] = pos.slice(0, 3).map((p) => path.resolve(p));
    const root = process.cwd(); // git runs merge drivers at the top of the work tree
    // Mapped by .gitattributes to another file (README.md), it must not rewrite it: git then shows its own conflict.
    const wrong = wrongPath(pos[3], 'tracker', root);
    if (wrong) {
      ctx.io.err(
        `agentsync merge-tracker: ${wrong}; this driver merges only a workspace's AgentTracker.md. Nothing was written: git reports a ` +
          `conflict in ${pos[3]}. Map only \`AgentTracker.md merge=agentsync-tracker\` in .gitattributes (agentsync init --git writes that line).`,
      );
      return 1;
    }
    let result: ReturnType<typeof mergeTracker>;
    try {
      const [base, ours, theirs] = [basePath, oursPath, theirsPath].map((f) => fs.readFileSync(f, 'utf8'));
      const store = mergedHandoffs(root, pos[3]);
      if ('why' in store)
        ctx.io.err(`agentsync merge-tracker: kept ours' Agent Handoffs section (${store.why}); the next AgentSync write renders it again`);
      result = mergeTracker(base, ours, theirs, 'handoffs' in store ? store.handoffs : null, gitTextMerge(root));
    } catch (e) {
      ctx.io.err(
        `agentsync merge-tracker: ${(e as Error).message}. Nothing was written: git reports a conflict in ${pos[3]}; resolve it by hand.`,
      );
      return 1;
    }
    writeFileAtomic(oursPath, result.text);
    if (result.conflicted)
      ctx.io.err(
        `agentsync merge-tracker: the humans' text in ${pos[3]} conflicts; the markers are in the file (the handoffs section is not part of them)`,
      );
    return result.conflicted ? 1 : 0;
  },
};
