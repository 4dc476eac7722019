// Every git AgentSync runs goes through here, gitRemote.ts (a fetch or push) or gitStatus.ts's asynchronous twin, with
// one set of safety options (gitSafety.ts): a repository's own config must not make us run its programs, since a
// repository is untrusted input.
import { childProcess } from '../disk/childProcess';
import { DRIVER_CONFIG_LISTING, SAFE_GIT_OPTIONS, noFetchGitEnv, safeGitArgs } from './gitSafety';
import { noteGitProcess } from './gitProcessLog';

export interface GitResult {
  ok: boolean;
  status: number | null;
  stdout: string;
  stderr: string;
  out: string;
}

/** A git whose output is bytes (a blob read with `cat-file --batch`). */
export interface GitBytesResult {
  ok: boolean;
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

interface SpawnOptions {
  input?: Buffer | string;
  env: NodeJS.ProcessEnv;
  maxBuffer: number;
}

function spawnGit(root: string, options: readonly string[], args: readonly string[], spawn: SpawnOptions): GitResult {
  noteGitProcess(args);
  const r = childProcess().spawnSync('git', [...options, '-C', root, ...args], { ...spawn, encoding: 'utf8' });
  if (r.error) throw new Error(`cannot run git (${r.error.message}); install git`);
  return { ok: r.status === 0, status: r.status, stdout: r.stdout, stderr: r.stderr, out: `${r.stdout}${r.stderr}`.trim() };
}

/**
 * A git that may compare or convert working-tree files (status, diff, ls-files, config): the repository's own filter
 * and diff drivers are switched off first (one more git, to list them). Reads only: a partial clone must not fetch.
 */
export function runGit(root: string, args: string[]): GitResult {
  const spawn = { env: noFetchGitEnv(), maxBuffer: 256 * 1024 * 1024 };
  // `git config --get-regexp` exits 1 when nothing matches; anything else means git cannot read the config, and a
  // command we cannot make safe is not run.
  const listing = spawnGit(root, SAFE_GIT_OPTIONS, DRIVER_CONFIG_LISTING, spawn);
  if (!listing.ok && listing.status !== 1) return listing;
  let options: string[];
  try {
    options = safeGitArgs(listing.stdout);
  } catch (e) {
    return { ok: false, status: null, stdout: '', stderr: '', out: (e as Error).message };
  }
  return spawnGit(root, options, args, spawn);
}

/** The environment of plumbing: never a prompt, git's own (untranslated) words. */
function plumbingEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}

const PLUMBING_MAX_BUFFER = 512 * 1024 * 1024;

/**
 * Plumbing on the repository's objects and refs (rev-parse, cat-file --batch, hash-object --stdin, mktree,
 * commit-tree, update-ref, merge-base, for-each-ref, config --get): none touches a working-tree file, so no filter or
 * diff driver runs and the safe options alone make it safe, with no listing to pay for. The sync mode's shared state
 * (store/sync/sharedStateRef.ts) is made of these; its objects come from a deliberate fetch, so no fetch is forbidden.
 */
export function runGitPlumbing(root: string, args: readonly string[], input?: Buffer | string, env?: NodeJS.ProcessEnv): GitResult {
  return spawnGit(root, SAFE_GIT_OPTIONS, args, { input, env: plumbingEnv(env), maxBuffer: PLUMBING_MAX_BUFFER });
}

/** runGitPlumbing for output read as bytes. */
export function runGitPlumbingBytes(root: string, args: readonly string[], input?: string): GitBytesResult {
  noteGitProcess(args);
  const r = childProcess().spawnSync('git', [...SAFE_GIT_OPTIONS, '-C', root, ...args], {
    input,
    env: plumbingEnv(),
    maxBuffer: PLUMBING_MAX_BUFFER,
  });
  if (r.error) throw new Error(`cannot run git (${r.error.message}); install git`);
  return { ok: r.status === 0, status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}
