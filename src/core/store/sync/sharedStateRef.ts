// The shared state on the remote's ref, through git's plumbing only (docs/contract.md §13): fetch into a private
// ref, read blobs with cat-file, write a commit with hash-object/mktree/commit-tree, push it as a compare-and-swap.
// The working tree, the index and FETCH_HEAD are never touched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError, isActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { runGitPlumbing as localGit, runGitPlumbingBytes as localGitBytes, type GitResult } from '../../git/gitCommand';
import {
  classifyRemoteFailure,
  gitOutputSummary,
  neverConnected,
  REMOTE_PROGRAM_OPTIONS,
  runRemoteGit,
  type RemoteRun,
} from '../../git/gitRemote';

import { checkSizes, LEDGER_FILE, sharedBlobs, sharedStateQuery, STATE_FILE, type SharedBlobs } from './sharedStateTree';

export { LEDGER_FILE, SHARED_STATE_ENTRIES, STATE_FILE, type SharedBlobs } from './sharedStateTree';

/**
 * `moved`: the compare-and-swap failed. `seen`: git saw the ref at another commit than the expected one (the lease was
 * stale, or the push was not a fast-forward); otherwise the server failed to update the ref (another push won the
 * race between its advertisement and its update, or the ref cannot be updated at all: a fetch tells which).
 */
export type PushOutcome =
  | { kind: 'ok' }
  | { kind: 'moved'; detail: string; seen: boolean }
  /** The conversation broke after it started (the reply lost, the time ran out): the remote may have taken it. */
  | { kind: 'unknown'; error: ActionError };

/** git's words for a push refused because the ref is not what the pusher expected: stale lease, not a fast-forward. */
const SEEN_MOVED = /stale info|fetch first|non-fast-forward/i;
/** The server's words for a ref update that failed after the advertisement: the ref moved meanwhile, or is stuck. */
const UPDATE_FAILED = /cannot lock|failed to (update|lock)|but expected|is at /i;

/** How a push's refused line ("[rejected] (stale info)", "[remote rejected] (failed to update ref)") is taken. */
export function pushRefusal(summary: string): { moved: boolean; seen: boolean } {
  if (SEEN_MOVED.test(summary)) return { moved: true, seen: true };
  return { moved: UPDATE_FAILED.test(summary), seen: false };
}

/** The remote's state as this clone sees it; one instance per workspace and sync config. */
export class SharedStateRef {
  /** Where the last fetch put the remote's ref: a private namespace no user refspec or branch list touches. */
  readonly localRef: string;
  private checked = false;
  /** The repository's common git folder (refs live there, also for a worktree); known once assertUsable ran. */
  private commonDir = '';

  constructor(
    private readonly root: string,
    readonly config: SyncConfig,
  ) {
    this.localRef = `refs/agentsync-fetched/${config.remote}/${config.ref.replace(/^refs\//, '')}`;
  }

  /** The repository and the remote exist: else `invalid_config`, saying what to set up. Checked once. */
  private assertUsable(): void {
    if (this.checked) return;
    const inside = localGit(this.root, ['rev-parse', '--git-common-dir']);
    if (!inside.ok) {
      throw new ActionError(
        'invalid_config',
        '.agentsync.json turns sync on, but this workspace is not inside a git repository; clone the repository (or remove "sync"). Nothing was changed.',
      );
    }
    const url = localGit(this.root, ['config', '--get', `remote.${this.config.remote}.url`]);
    if (!url.ok || !url.stdout.trim()) {
      throw new ActionError(
        'invalid_config',
        `.agentsync.json: sync.remote is "${this.config.remote}", but this clone has no such git remote. Add it ` +
          `(git remote add ${this.config.remote} <url>) or name another in sync.remote. Nothing was changed.`,
        { remote: this.config.remote },
      );
    }
    this.assertNotCheckedOut();
    this.commonDir = path.resolve(this.root, inside.stdout.trim());
    this.checked = true;
  }

  /**
   * sync.ref naming a branch any worktree of this clone has checked out, or its upstream, would make the shared state's commits the
   * code branch's: `invalid_config`. Costs a git process only when sync.ref is a branch (refs/heads/...).
   */
  private assertNotCheckedOut(): void {
    const { ref, remote } = this.config;
    if (!ref.startsWith('refs/heads/')) return;
    // %(worktreepath) names the worktree a branch is checked out in, any worktree of the clone (docs/contract.md §14).
    const r = localGit(this.root, [
      'for-each-ref',
      '--format=%(worktreepath)%00%(refname)%00%(upstream:remotename)%00%(upstream:remoteref)',
      'refs/heads',
    ]);
    for (const line of r.stdout.split('\n')) {
      const [worktree, branch, upstreamRemote, upstreamRef] = line.split('\0');
      if (!worktree) continue;
      const upstream = upstreamRemote === remote && upstreamRef === ref;
      if (branch !== ref && !upstream) continue;
      throw new ActionError(
        'invalid_config',
        `.agentsync.json: sync.ref is "${ref}", the branch the worktree ${worktree} has checked out${upstream ? ' (as its upstream)' : ''}: ` +
          "AgentSync's shared-state commits would replace that branch's files. Give the shared state a ref of its own " +
          '(sync.ref, e.g. the default "refs/agentsync/state", or remove sync.ref). Nothing was changed.',
        { sync: { remote, ref } },
      );
    }
  }

  /** The commit this clone last fetched or pushed, or null. No network. */
  lastKnown(): string | null {
    const r = localGit(this.root, ['rev-parse', '--verify', '--quiet', `${this.localRef}^{commit}`]);
    return r.ok ? r.stdout.trim() : null;
  }

  /**
   * Removes the lock file a git process killed mid-update left on the private ref (git would refuse every later
   * update of it: "cannot lock ref … File exists"). Only AgentSync writes that namespace, under this clone's lock,
   * and the remote's compare-and-swap decides every write, so a lock removed here can cost at most a stale view.
   */
  private clearStaleRefLock(): void {
    try {
      fs.rmSync(path.join(this.commonDir, `${this.localRef}.lock`), { force: true });
    } catch {
      // nothing to remove, or not ours to remove: git's own message will say so
    }
  }

  /** Fetches the ref; the commit it holds, or null when the remote has no such ref yet. Throws the named remote_* refusal. */
  async fetch(): Promise<string | null> {
    this.assertUsable();
    this.clearStaleRefLock();
    const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', REMOTE_PROGRAM_OPTIONS.fetch];
    const run = await runRemoteGit(this.root, [...args, this.config.remote, `+${this.config.ref}:${this.localRef}`]);
    // The object the ref names, whatever it is (read() refuses anything but a shared-state commit).
    if (run.ok) return localGit(this.root, ['rev-parse', '--verify', '--quiet', this.localRef]).stdout.trim() || null;
    // No such ref on the remote: the private ref keeps the last commit seen (it holds what a deleted ref lost).
    if (/couldn't find remote ref/i.test(run.stderr)) return null;
    throw this.failure('fetch from', run);
  }

  /**
   * The blobs of a fetched commit (null: no commit yet, so no state), read with one `git cat-file --batch`. Anything
   * but a commit whose tree holds exactly the shared state's files (handoffs.json, and ledger.jsonl) is refused
   * `store_invalid`: a code branch's commit or a blob is not an empty state, and a write on top of it would replace it.
   */
  read(commit: string | null): SharedBlobs {
    if (!commit) return { handoffs: null, ledger: '' };
    const input = sharedStateQuery(commit);
    // Sizes first: an object over its cap is refused before a byte of it is read (sharedStateSizes.ts).
    const sizes = localGit(this.root, ['cat-file', '--batch-check'], input);
    if (sizes.status !== 0) throw new Error(`git cat-file --batch-check ${commit} failed: ${sizes.stderr}`);
    checkSizes(sizes.stdout, this.config, commit);
    const r = localGitBytes(this.root, ['cat-file', '--batch'], input);
    if (r.status !== 0) throw new Error(`git cat-file ${commit} failed: ${r.stderr}`);
    return sharedBlobs(r.stdout, this.config, commit);
  }

  /** The blobs of `commit` when it is a shared-state commit, else null (no refusal). */
  readIfState(commit: string): SharedBlobs | null {
    try {
      return this.read(commit);
    } catch (e) {
      if (isActionError(e)) return null;
      throw e;
    }
  }

  /** Whether `commit` descends from (or is) `ancestor`: `git merge-base --is-ancestor`, with the same safe options. */
  descends(commit: string, ancestor: string): boolean {
    const r = localGit(this.root, ['merge-base', '--is-ancestor', ancestor, commit]);
    if (r.ok) return true;
    if (r.status === 1) return false;
    throw new Error(`git merge-base --is-ancestor ${ancestor} ${commit} failed: ${r.stderr.trim()}`);
  }

  /** descends(), false when git cannot tell (an object this clone does not have). */
  descendsQuietly(commit: string, ancestor: string): boolean {
    try {
      return this.descends(commit, ancestor);
    } catch {
      return false;
    }
  }

  /** A commit holding these blobs on top of `parent` (objects only: no ref, no index, no working tree). */
  write(parent: string | null, handoffs: Buffer, ledger: string, message: string): string {
    const hash = (data: Buffer | string) =>
      mustOk(localGit(this.root, ['hash-object', '-w', '--stdin'], data), 'hash-object').stdout.trim();
    const tree = mustOk(
      localGit(this.root, ['mktree'], `100644 blob ${hash(handoffs)}\t${STATE_FILE}\n100644 blob ${hash(ledger)}\t${LEDGER_FILE}\n`),
      'mktree',
    ).stdout.trim();
    const args = ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message];
    return mustOk(localGit(this.root, args, undefined, COMMIT_IDENTITY), 'commit-tree').stdout.trim();
  }

  /** Pushes `commit` to the ref if the ref is still `expected` (null: must not exist yet). */
  async push(commit: string, expected: string | null): Promise<PushOutcome> {
    this.assertUsable();
    const { ref, remote } = this.config;
    const lease = `--force-with-lease=${ref}:${expected ?? ''}`;
    const args = ['push', '--porcelain', '--no-verify', REMOTE_PROGRAM_OPTIONS.push, lease, remote, `${commit}:${ref}`];
    const run = await runRemoteGit(this.root, args);
    const line = run.stdout.split('\n').find((l) => l.includes(`:${ref}\t`));
    if (run.ok && line && !line.startsWith('!')) {
      localGit(this.root, ['update-ref', this.localRef, commit]);
      return { kind: 'ok' };
    }
    if (line?.startsWith('!')) {
      const summary = line.split('\t').slice(2).join(' ');
      // Someone else's write landed since the commit we decided on: the compare-and-swap failed, apply again.
      const refusal = pushRefusal(summary);
      if (refusal.moved) return { kind: 'moved', detail: summary, seen: refusal.seen };
      // The server's own words (a hook's or the host's message) come as "remote:" lines.
      const said = run.stderr
        .split('\n')
        .filter((l) => l.startsWith('remote:'))
        .map((l) => l.slice(7).trim())
        .filter(Boolean);
      throw refused(this.config, [summary, ...said].join(' | ').slice(0, 600));
    }
    const failure = this.failure('push to', run);
    if (failure.reason === 'remote_unreachable' && !neverConnected(run)) return { kind: 'unknown', error: failure };
    throw failure;
  }

  /** The push was refused, and a fetch showed the ref did not move: `remote_refused` with the server's words. */
  stuck(detail: string): ActionError {
    return refused(this.config, `${detail}, and the ref did not move`);
  }

  private failure(what: string, run: RemoteRun): ActionError {
    const kind = classifyRemoteFailure(run);
    const said = gitOutputSummary(run);
    const { remote, ref } = this.config;
    const sync = { remote, ref };
    if (kind === 'auth') {
      return new ActionError(
        'remote_auth',
        `The git remote "${remote}" wants credentials AgentSync cannot get without a prompt (git said: ${said}). Set up a credential ` +
          'helper, an ssh agent or a token for this remote (a plain `git fetch` must work without asking), then retry. Nothing was changed.',
        { sync, detail: said },
      );
    }
    if (kind === 'refused') return refused(this.config, said);
    return new ActionError(
      'remote_unreachable',
      `Could not ${what} the git remote "${remote}" (git said: ${said}). Nothing was changed. Retry when the remote answers. ` +
        'A read without --fresh (or "fresh": true) answers from this clone\'s last synced state; for writes, ' +
        '"sync": { "offline": "local" } in .agentsync.json works locally and confirms later with `agentsync sync`.',
      { sync, detail: said },
    );
  }
}

function refused(config: SyncConfig, said: string): ActionError {
  return new ActionError(
    'remote_refused',
    `The git remote "${config.remote}" refused the update of ${config.ref} (${said}). Nothing was changed. If the host protects ` +
      `or forbids this ref, allow pushes to it, or set sync.ref to a branch this machine may push (e.g. "refs/heads/agentsync-state").`,
    { sync: { remote: config.remote, ref: config.ref }, detail: said },
  );
}

/** The shared state's commits are AgentSync's, not a person's: a fixed identity, so no user.name setup is needed. */
const COMMIT_IDENTITY: NodeJS.ProcessEnv = {
  GIT_AUTHOR_NAME: 'AgentSync',
  GIT_AUTHOR_EMAIL: 'agentsync@localhost',
  GIT_COMMITTER_NAME: 'AgentSync',
  GIT_COMMITTER_EMAIL: 'agentsync@localhost',
};

function mustOk(r: GitResult, what: string): GitResult {
  if (!r.ok) throw new Error(`git ${what} failed: ${r.stderr.trim()}`);
  return r;
}
