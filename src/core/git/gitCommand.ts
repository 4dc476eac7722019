// Every git AgentSync runs goes through here or through gitStatus.ts's asynchronous twin: a repository's own config
// must not make us run its programs (gitSafety.ts), since a repository is untrusted input.
import { childProcess } from '../disk/childProcess';
import { DRIVER_CONFIG_LISTING, SAFE_GIT_OPTIONS, noFetchGitEnv, safeGitArgs } from './gitSafety';

export interface GitResult {
  ok: boolean;
  status: number | null;
  stdout: string;
  out: string;
}

function spawnGit(root: string, options: readonly string[], args: readonly string[]): GitResult {
  // noFetchGitEnv: these calls only read or configure the repository; a partial clone must not fetch (gitSafety.ts).
  const r = childProcess().spawnSync('git', [...options, '-C', root, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: noFetchGitEnv(),
  });
  if (r.error) throw new Error(`cannot run git (${r.error.message}); install git`);
  return { ok: r.status === 0, status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}`.trim() };
}

export function runGit(root: string, args: string[]): GitResult {
  // `git config --get-regexp` exits 1 when nothing matches; anything else means git cannot read the config, and a
  // command we cannot make safe is not run.
  const listing = spawnGit(root, SAFE_GIT_OPTIONS, DRIVER_CONFIG_LISTING);
  if (!listing.ok && listing.status !== 1) return listing;
  let options: string[];
  try {
    options = safeGitArgs(listing.stdout);
  } catch (e) {
    return { ok: false, status: null, stdout: '', out: (e as Error).message };
  }
  return spawnGit(root, options, args);
}
