// What git says about the workspace at End Session: branch, commit and the hot files (unstaged, staged and untracked
// changes), as paths relative to the workspace folder, also when that folder is a subfolder of the repository.
import { childProcess } from '../disk/childProcess';
import { DRIVER_CONFIG_LISTING, SAFE_GIT_OPTIONS, noFetchGitEnv, safeGitArgs } from './gitSafety';
import { noteGitProcess } from './gitProcessLog';

export interface GitInfo {
  isRepo: boolean;
  branch: string | null;
  commit: string | null;
  hotFiles: string[];
  /** Why git could not answer (not a repository, git missing, a time-out), for the response; null when it did. */
  problem: string | null;
}

const GIT_TIMEOUT_MS = 15_000;

/** Files AgentSync itself writes: counting them would make every session "hot" once it has started. */
export function isAgentSyncOwnFile(rel: string): boolean {
  return rel === 'AgentTracker.md' || rel === 'decisions.md' || rel === '.agentsync' || rel.startsWith('.agentsync/');
}

function git(cwd: string, options: readonly string[], args: readonly string[]): Promise<string> {
  noteGitProcess(args);
  return new Promise((resolve, reject) => {
    // GIT_OPTIONAL_LOCKS=0: status must not take index.lock and collide with the user's own git commands.
    // noFetchGitEnv: a partial clone's lazy fetch would run the repository's ssh or upload-pack program (gitSafety.ts).
    childProcess().execFile(
      'git',
      [...options, ...args],
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'buffer',
        env: { ...noFetchGitEnv(), GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        if (err) {
          const text = Buffer.isBuffer(stderr) ? stderr.toString('utf8').trim() : '';
          reject(Object.assign(new Error(text || err.message), { code: (err as NodeJS.ErrnoException).code }));
        } else resolve(stdout.toString('utf8'));
      },
    );
  });
}

/**
 * The options for every other git call: the repository's filter and diff programs switched off (gitSafety.ts).
 * Rejects when git cannot list its config or a driver cannot be switched off: a command we cannot make safe is not run.
 */
async function safeOptions(cwd: string): Promise<string[]> {
  let listing = '';
  try {
    listing = await git(cwd, SAFE_GIT_OPTIONS, DRIVER_CONFIG_LISTING);
  } catch (e) {
    if ((e as { code?: unknown }).code !== 1) throw e; // exit 1: no filter or diff setting at all
  }
  return safeGitArgs(listing);
}

/**
 * Parses `git status --porcelain=v1 -z` (paths relative to the repository root) into workspace-relative paths.
 * A rename or copy entry is followed by its source path, which is skipped: the new name is what changed.
 */
export function parsePorcelainZ(output: string, prefix: string): string[] {
  const fields = output.split('\0');
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (entry.length < 4) continue;
    const xy = entry.slice(0, 2);
    const repoPath = entry.slice(3);
    if (xy.includes('R') || xy.includes('C')) i++;
    if (!repoPath.startsWith(prefix)) continue;
    const rel = repoPath.slice(prefix.length).replace(/\/$/, '');
    if (!rel || isAgentSyncOwnFile(rel) || seen.has(rel)) continue;
    seen.add(rel);
    out.push(rel);
  }
  return out;
}

const unknown = (isRepo: boolean, problem: string): GitInfo => ({ isRepo, branch: null, commit: null, hotFiles: [], problem });

export async function readGitInfo(root: string): Promise<GitInfo> {
  // The config listing and `rev-parse --show-prefix` (which reads no file's contents) run side by side.
  const [listed, shown] = await Promise.allSettled([safeOptions(root), git(root, SAFE_GIT_OPTIONS, ['rev-parse', '--show-prefix'])]);
  if (listed.status === 'rejected') {
    const e = listed.reason as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return unknown(false, 'git is not installed (or not on PATH); hot files are unknown');
    return unknown(false, `git was not run: ${e.message.split('\n')[0]}; hot files are unknown`);
  }
  if (shown.status === 'rejected') {
    return unknown(false, `not a git repository (${(shown.reason as Error).message.split('\n')[0]}); hot files are unknown`);
  }
  const options = listed.value;
  const prefix = shown.value.trim();
  const [branch, commit, status] = await Promise.all([
    git(root, options, ['symbolic-ref', '--short', '-q', 'HEAD']).then(
      (s) => s.trim() || null,
      () => null,
    ),
    git(root, options, ['rev-parse', '--short', 'HEAD']).then(
      (s) => s.trim() || null,
      () => null,
    ), // null before the first commit
    // --ignore-submodules=dirty: git would run `git status` inside each submodule, under that submodule's own config.
    git(root, options, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=dirty', '--', '.']).then(
      (s) => ({ ok: true as const, text: s }),
      (e: Error) => ({ ok: false as const, text: e.message }),
    ),
  ]);
  if (!status.ok) return { isRepo: true, branch, commit, hotFiles: [], problem: `git status failed: ${status.text.split('\n')[0]}` };
  return {
    isRepo: true,
    branch: branch ?? (commit ? 'HEAD' : null),
    commit,
    hotFiles: parsePorcelainZ(status.text, prefix),
    problem: null,
  };
}
