// The shared state on the remote's ref, through git's plumbing only (docs/contract.md §13): fetch into a private
// ref, read objects through one cat-file conversation (sharedView.ts), write a commit with one fast-import
// (sharedTreeWriter.ts), push it as a compare-and-swap.
// The working tree, the index and FETCH_HEAD are never touched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError, isActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { runGitPlumbing as localGit } from '../../git/gitCommand';
import { refused, remoteFailure } from './remoteRefusals';
import { neverConnected, REMOTE_PROGRAM_OPTIONS, runRemoteGit, sshUrl } from '../../git/gitRemote';

import { GitObjectSession } from '../../git/gitObjectSession';
import { findWorktree } from '../../git/worktreeLocation';
import type { LedgerEntry } from '../storeTransaction';
import { ledgerAnswers, readSharedView, recordsByUid, type SharedView } from './sharedView';
import { writeSharedCommit, type TreeChange } from './sharedTreeWriter';
import { expiredLedgerAnswers } from './ledgerPruning';

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
  /** The repository's common git folder (refs live there, also for a worktree): named by git in assertUsable, or found by reading files (clearStaleRefLock). */
  private commonDir = '';
  private session: GitObjectSession | null = null;
  /** Whether the remote's URL may be an ssh one (sync.json's `transport`): false spares the core.sshCommand lookup. */
  ssh = true;
  /** What the last push said of the remote's URL ("To <url>"): 'ssh', 'other', or null when it said nothing. */
  pushedOver: 'ssh' | 'other' | null = null;

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
   * Removes the lock file a git process killed mid-update left on one of AgentSync's private refs (the fetched ref,
   * the scratch ref fast-import writes): git would refuse every later update of it ("cannot lock ref … File exists").
   * Only AgentSync writes those namespaces, under this clone's lock, and the remote's compare-and-swap decides every
   * write, so a lock removed here can cost at most a stale view. The common dir is found by reading files when no git
   * process has named it yet (an uncontended write starts none before fast-import).
   */
  private clearStaleRefLock(ref: string): void {
    if (!this.commonDir) {
      const lookup = findWorktree(this.root);
      if (!lookup?.ok) return;
      this.commonDir = lookup.location.commonDir;
    }
    try {
      fs.rmSync(path.join(this.commonDir, `${ref}.lock`), { force: true });
    } catch {
      // nothing to remove, or not ours to remove: git's own message will say so
    }
  }

  /** Fetches the ref; the commit it holds, or null when the remote has no such ref yet. Throws the named remote_* refusal. */
  async fetch(): Promise<string | null> {
    this.assertUsable();
    this.clearStaleRefLock(this.localRef);
    const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', REMOTE_PROGRAM_OPTIONS.fetch];
    const run = await runRemoteGit(this.root, [...args, this.config.remote, `+${this.config.ref}:${this.localRef}`], undefined, this.ssh);
    // The object the ref names, whatever it is (read() refuses anything but a shared-state commit).
    if (run.ok) return localGit(this.root, ['rev-parse', '--verify', '--quiet', this.localRef]).stdout.trim() || null;
    // No such ref on the remote: the private ref keeps the last commit seen (it holds what a deleted ref lost).
    if (/couldn't find remote ref/i.test(run.stderr)) return null;
    throw remoteFailure(this.config, 'fetch from', run);
  }

  /** The conversation with `git cat-file --batch` this batch reads through (one git process, sharedView.ts). */
  private objects(): GitObjectSession {
    return (this.session ??= new GitObjectSession(this.root));
  }

  /** Ends the batch's object session (its git process). */
  endSession(): void {
    this.session?.close();
    this.session = null;
  }

  /**
   * What the commit `name` (an id, or this clone's private ref) holds, in either shared format; null when there is no
   * such commit. `wanted`: the request ids whose ledger answers a format-2 read looks up. Refusals as sharedView.ts says.
   */
  async view(name: string, wanted: readonly string[]): Promise<{ commit: string; view: SharedView } | null> {
    try {
      return await readSharedView(this.objects(), this.config, name, wanted);
    } catch (e) {
      this.endSession(); // a refusal may leave an object half read: the next read starts a new conversation
      throw e;
    }
  }

  /** view() of the commit this clone last fetched or pushed (no network); null when there is none or it cannot be read. */
  async lastKnownView(wanted: readonly string[]): Promise<{ commit: string; view: SharedView } | null> {
    try {
      return await this.view(this.localRef, wanted);
    } catch (e) {
      // A newer format is an answer, not a view to replace with a fetch; anything else is no view: fetch instead.
      if (isActionError(e) && e.reason === 'store_too_new') throw e;
      return null;
    }
  }

  /** The ledger answers of `wanted` ids in format-2 commit `commit`. */
  ledgerAnswers(commit: string, wanted: readonly string[]): Promise<Map<string, LedgerEntry>> {
    return ledgerAnswers(this.objects(), this.config, commit, wanted);
  }

  /** Old ledger answers a format-2 write of `changes` on `commit` removes (ledgerPruning.ts); none when they cannot be read. */
  async expiredLedger(commit: string, changes: readonly TreeChange[], now: Date): Promise<TreeChange[]> {
    try {
      return await expiredLedgerAnswers(this.objects(), commit, changes, now);
    } catch {
      this.endSession(); // the next write prunes
      return [];
    }
  }

  /** Which of `uids` format-2 commit `commit` holds under `area`: their bytes by uid (none when it cannot be read). */
  async recordsByUid(commit: string, area: 'records' | 'archive', uids: readonly string[]): Promise<Map<string, Buffer>> {
    if (uids.length === 0) return new Map();
    try {
      return await recordsByUid(this.objects(), this.config, commit, area, uids);
    } catch {
      this.endSession();
      return new Map();
    }
  }

  /** Whether `commit`'s tree has a file at `file` (false when it cannot be read). */
  async hasFile(commit: string, file: string): Promise<boolean> {
    try {
      const [o] = await this.objects().get([`${commit}:${file}`], 1024);
      return o?.type === 'blob';
    } catch {
      this.endSession();
      return false;
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

  /** A commit of `changes` on top of `parent` (objects and a scratch ref only: no index, no working tree). One git process. */
  write(parent: string | null, changes: readonly TreeChange[], message: string): string {
    const scratchRef = `refs/agentsync-scratch/${this.config.remote}/${this.config.ref.replace(/^refs\//, '')}`;
    this.clearStaleRefLock(scratchRef);
    return writeSharedCommit(this.root, { scratchRef, parent, message, changes, when: Math.floor(Date.now() / 1000) });
  }

  /** Pushes `commit` to the ref if the ref is still `expected` (null: must not exist yet). */
  async push(commit: string, expected: string | null): Promise<PushOutcome> {
    // A branch ref is checked against the worktrees first; the default refs/agentsync/... costs no check before the
    // push: a missing remote or repository fails the push, and is then named (assertUsable below).
    if (this.config.ref.startsWith('refs/heads/')) this.assertUsable();
    const { ref, remote } = this.config;
    const lease = `--force-with-lease=${ref}:${expected ?? ''}`;
    // The private ref follows a push that landed in the same git process: a fetch refspec for it, given on the command
    // line only, makes git update it as the remote-tracking ref of what was pushed (no update-ref process after).
    const tracking = ['-c', `remote.${remote}.fetch=+${ref}:${this.localRef}`];
    const args = [...tracking, 'push', '--porcelain', '--no-verify', REMOTE_PROGRAM_OPTIONS.push, lease, remote, `${commit}:${ref}`];
    const run = await runRemoteGit(this.root, args, undefined, this.ssh);
    const url = /^To (.+)$/m.exec(run.stdout)?.[1];
    this.pushedOver = url === undefined ? null : sshUrl(url) ? 'ssh' : 'other';
    const line = run.stdout.split('\n').find((l) => l.includes(`:${ref}\t`));
    if (run.ok && line && !line.startsWith('!')) return { kind: 'ok' };
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
    this.assertUsable();
    const failure = remoteFailure(this.config, 'push to', run);
    if (failure.reason === 'remote_unreachable' && !neverConnected(run)) return { kind: 'unknown', error: failure };
    throw failure;
  }

  /** The push was refused, and a fetch showed the ref did not move: `remote_refused` with the server's words. */
  stuck(detail: string): ActionError {
    return refused(this.config, `${detail}, and the ref did not move`);
  }
}
