// Real git for unit tests that check AgentSync against what git itself lays out on disk, with a fixed author.
import { execFileSync } from 'node:child_process';

const AUTHOR = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

/** `git <args>` in `cwd`: its trimmed output; throws when git fails. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...AUTHOR } }).trim();
}
