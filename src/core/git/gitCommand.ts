// Every git AgentSync runs goes through here: a repository's own config must not make us run its programs
// (fsmonitor hooks, hooks), since a repository is untrusted input (docs/agentsync-documentation.md, "Merging with git").
import { childProcess } from '../disk/childProcess';
import { SAFE_GIT_OPTIONS } from './gitStatus';

export interface GitResult {
  ok: boolean;
  status: number | null;
  stdout: string;
  out: string;
}

export function runGit(root: string, args: string[]): GitResult {
  const r = childProcess().spawnSync('git', [...SAFE_GIT_OPTIONS, '-C', root, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw new Error(`cannot run git (${r.error.message}); install git`);
  return { ok: r.status === 0, status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}`.trim() };
}
