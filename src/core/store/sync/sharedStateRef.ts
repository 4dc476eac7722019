// The shared state on the remote's ref, through git's plumbing only (docs/contract.md §13): fetch into a private
// ref, read objects through one cat-file conversation (sharedView.ts), write a commit with one fast-import
// (sharedTreeWriter.ts), push it as a compare-and-swap. All of it in AgentSync's own repository under the git
// common dir (git/stateRepository.ts); the user's repository is only read (its remote, its branches).
// The working tree, the index and FETCH_HEAD are never touched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError, isActionError } from '../../domain/errors';
import type { SyncConfig } from '../../domain/configSchema';
import { runGitPlumbing as localGit } from '../../git/gitCommand';
import { pushRefusal, refused, remoteFailure, type PushOutcome } from './remoteRefusals';
import { assertRemoteUsable } from './remoteUsable';
import { neverConnected, REMOTE_PROGRAM_OPTIONS, runRemoteGit, sshUrl } from '../../git/gitRemote';
import { GitObjectSession } from '../../git/gitObjectSession';
import { findWorktree } from '../../git/worktreeLocation';
import { ensureStateRepository, hasRef, isShallow, stateGitDir, stateRepositoryDir, tidyStateRepository } from '../../git/stateRepository';
import type { LedgerEntry } from '../storeTransaction';
import { areaRecords, ledgerAnswers, readSharedView, recordsByUid, type SharedView } from './sharedView';
import type { TreeFormat, UidArea } from './sharedTreeLayout';
import { writeSharedCommit, type TreeChange } from './sharedTreeWriter';
import { expiredLedgerAnswers } from './ledgerPruning';
import { archivedSince } from './archiveDiff';

export { LEDGER_FILE, SHARED_STATE_ENTRIES, STATE_FILE, type SharedBlobs } from './sharedStateTree';

/** The remote's state as this clone sees it; one instance per workspace and sync config. */
export class SharedStateRef {
  /** Where the last fetch put the remote's ref: a private namespace no user refspec or branch list touches. */
  readonly localRef: string;
  private checked = false;
  /** The repository's common git folder (refs live there, also for a worktree): named by git in assertUsable, or found by reading files (stateDir). */
  private commonDir = '';
  /** AgentSync's own repository for the shared state (git/stateRepository.ts), once found or made. */
  private repository = '';
  private session: GitObjectSession | null = null;
  /** Whether the remote's URL may be an ssh one (sync.json's `transport`): false spares the core.sshCommand lookup. */
  ssh = true;
  /** What the last push said of the remote's URL ("To <url>"): 'ssh', 'other', or null when it said nothing. */
  pushedOver: 'ssh' | 'other' | null = null;

  /** The scratch ref fast-import writes to. */
  private readonly scratchRef: string;

  constructor(
    private readonly root: string,
    readonly config: SyncConfig,
  ) {
    const name = `${config.remote}/${config.ref.replace(/^refs\//, '')}`;
    this.localRef = `refs/agentsync-fetched/${name}`;
    this.scratchRef = `refs/agentsync-scratch/${name}`;
  }

  /**
   * The state repository, made on first use; the refs an earlier build kept in the user's repository move into it.
   * Finding it reads files only. Outside a git repository: assertUsable's `invalid_config`.
   */
  stateDir(): string {
    if (this.repository) return this.repository;
    if (!this.commonDir) {
      const lookup = findWorktree(this.root);
      if (!lookup?.ok) {
        this.assertUsable();
        throw new Error(`${this.root}: git names a repository whose folders cannot be read`);
      }
      this.commonDir = lookup.location.commonDir;
    }
    this.repository = ensureStateRepository(this.root, this.commonDir, [this.localRef], [this.localRef, this.scratchRef]);
    return this.repository;
  }

  /** Where the state repository is (made or not) and whether it is shallow, read from files; null outside a clone. */
  whereObjects(): { repository: string; shallow: boolean } | null {
    const lookup = findWorktree(this.root);
    if (!lookup?.ok) return null;
    const repository = stateRepositoryDir(lookup.location.commonDir);
    return { repository, shallow: isShallow(repository) };
  }

  /** The option pointing a git command at the state repository. */
  private gitDir(): string {
    return stateGitDir(this.stateDir());
  }

  /** The repository and the remote exist: else `invalid_config`, saying what to set up. Checked once. */
  private assertUsable(): void {
    if (this.checked) return;
    this.commonDir = assertRemoteUsable(this.root, this.config);
    this.checked = true;
  }

  /**
   * Removes the lock file a git process killed mid-update left on one of AgentSync's private refs (the fetched ref,
   * the scratch ref fast-import writes): git would refuse every later update of it ("cannot lock ref … File exists").
   * Only AgentSync writes those namespaces, under this clone's lock, and the remote's compare-and-swap decides every
   * write, so a lock removed here can cost at most a stale view. The common dir is found by reading files when no git
   * process has named it yet (an uncontended write starts none before fast-import).
   */
  private clearStaleRefLock(ref: string): void {
    try {
      fs.rmSync(path.join(this.stateDir(), `${ref}.lock`), { force: true });
    } catch {
      // nothing to remove, or not ours to remove: git's own message will say so
    }
  }

  /**
   * Fetches the ref; the commit it holds, or null when the remote has no such ref yet. Throws the named remote_*
   * refusal. `adopted`: the commit this clone last adopted, which the descent check needs. A first fetch with none
   * brings the ref's last commit only (`--depth=1`: the bytes of one state, whatever its history); one that needs a
   * commit a shallow repository lacks brings the whole history.
   */
  async fetch(adopted: string | null = null): Promise<string | null> {
    this.assertUsable();
    this.clearStaleRefLock(this.localRef);
    const dir = this.stateDir();
    const args = [
      stateGitDir(dir),
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      REMOTE_PROGRAM_OPTIONS.fetch,
    ];
    if (!hasRef(dir, this.localRef)) {
      if (adopted === null) args.push('--depth=1');
    } else if (adopted !== null && isShallow(dir) && !localGit(this.root, [stateGitDir(dir), 'cat-file', '-e', `${adopted}^{commit}`]).ok) {
      args.push('--unshallow');
    }
    const run = await runRemoteGit(this.root, [...args, this.config.remote, `+${this.config.ref}:${this.localRef}`], undefined, this.ssh);
    // The object the ref names, whatever it is (read() refuses anything but a shared-state commit).
    if (run.ok) {
      tidyStateRepository(this.root, dir);
      return localGit(this.root, [stateGitDir(dir), 'rev-parse', '--verify', '--quiet', this.localRef]).stdout.trim() || null;
    }
    // No such ref on the remote: the private ref keeps the last commit seen (it holds what a deleted ref lost).
    if (/couldn't find remote ref/i.test(run.stderr)) return null;
    throw remoteFailure(this.config, 'fetch from', run);
  }

  /** The conversation with `git cat-file --batch` this batch reads through (one git process, sharedView.ts). */
  private objects(): GitObjectSession {
    return (this.session ??= new GitObjectSession(this.root, this.stateDir()));
  }

  /** Ends the batch's object session (its git process). */
  endSession(): void {
    this.session?.close();
    this.session = null;
  }

  /**
   * What the commit `name` (an id, or this clone's private ref) holds, in either shared format; null when there is no
   * such commit. `wanted`: the request ids whose ledger answers a tree format's read looks up. Refusals as sharedView.ts says.
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

  /** The ledger answers of `wanted` ids in commit `commit` of a tree format. */
  ledgerAnswers(commit: string, wanted: readonly string[]): Promise<Map<string, LedgerEntry>> {
    return ledgerAnswers(this.objects(), this.config, commit, wanted);
  }

  /** Old ledger answers a tree format's write of `changes` on `commit` removes (ledgerPruning.ts); none when they cannot be read. */
  expiredLedger(commit: string, changes: readonly TreeChange[], now: Date): Promise<TreeChange[]> {
    return this.bestEffort((s) => expiredLedgerAnswers(s, commit, changes, now), []); // the next write prunes
  }

  /** Which of `uids` commit `commit` (tree format `format`) holds under `area`: their bytes by uid (none when unreadable). */
  recordsByUid(commit: string, area: UidArea, uids: readonly string[], format: TreeFormat): Promise<Map<string, Buffer>> {
    if (uids.length === 0) return Promise.resolve(new Map<string, Buffer>());
    return this.bestEffort((s) => recordsByUid(s, this.config, commit, area, uids, format), new Map<string, Buffer>());
  }

  /** The uids `after` archived since `before` (archiveDiff.ts), both in tree format `format`; none when unreadable. */
  archivedSince(before: string, after: string, format: TreeFormat): Promise<string[]> {
    return this.bestEffort((s) => archivedSince(s, before, after, format), []);
  }

  /** Every archived record of commit `commit` in tree format `format`: uid, path, object id (the upgrade moves them). */
  archiveEntries(commit: string, format: TreeFormat): Promise<{ uid: string; path: string; oid: string }[]> {
    return areaRecords(this.objects(), this.config, commit, 'archive', format); // a refusal fails the write; prepare() ends the session
  }

  /** Whether `commit`'s tree has a file at `file` (false when it cannot be read). */
  hasFile(commit: string, file: string): Promise<boolean> {
    return this.bestEffort(async (s) => (await s.get([`${commit}:${file}`], 1024))[0]?.type === 'blob', false);
  }

  /** A read through the batch's conversation whose failure answers `fallback`; the conversation then starts anew. */
  private async bestEffort<T>(read: (session: GitObjectSession) => Promise<T>, fallback: T): Promise<T> {
    try {
      return await read(this.objects());
    } catch {
      this.endSession();
      return fallback;
    }
  }

  /** Whether `commit` descends from (or is) `ancestor`: `git merge-base --is-ancestor`, with the same safe options. */
  descends(commit: string, ancestor: string): boolean {
    const r = localGit(this.root, [this.gitDir(), 'merge-base', '--is-ancestor', ancestor, commit]);
    if (r.ok) return true;
    if (r.status === 1) return false;
    // An ancestor this repository lacks while it holds the whole history is in no history it has: not descended.
    if (!isShallow(this.stateDir()) && !localGit(this.root, [this.gitDir(), 'cat-file', '-e', `${ancestor}^{commit}`]).ok) return false;
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
    this.clearStaleRefLock(this.scratchRef);
    const commit = { scratchRef: this.scratchRef, parent, message, changes, when: Math.floor(Date.now() / 1000) };
    return writeSharedCommit(this.root, commit, this.stateDir());
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
    const args = [
      ...tracking,
      this.gitDir(),
      'push',
      '--porcelain',
      '--no-verify',
      REMOTE_PROGRAM_OPTIONS.push,
      lease,
      remote,
      `${commit}:${ref}`,
    ];
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
