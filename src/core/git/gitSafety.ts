// What keeps a repository's git config from making AgentSync run a program (docs/agentsync-documentation.md, "Hot
// files from git"; docs/contract.md §12). A repository is untrusted input: `.gitattributes` can send any file through
// a filter or diff driver, and the repository's own config (`.git/config`, a worktree config, or a file either
// includes) can name the program that driver runs. `git status` runs a clean filter to compare a file whose stat
// changed; diff runs textconv and external diff programs. So every git call gets:
// - fixed options switching off what a config names for every repository (`core.fsmonitor`, hooks);
// - for each filter or diff driver the repository's own config defines, an override that empties its programs
//   (`filter.<name>.clean/smudge/process`, `diff.<name>.textconv/command`, `diff.external`) and makes the filter
//   optional, passed as `-c` options (which every git version honours; a driver name holding `=`, which `-c`
//   cannot express, makes AgentSync refuse to run git rather than leave that driver on).
// Drivers the local user configured (global or system scope, e.g. git-lfs) keep working: they are the user's consent.

/** Options put before every git command AgentSync runs. */
export const SAFE_GIT_OPTIONS: readonly string[] = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];

/**
 * Environment for every git call that only READS the repository. A partial clone's config
 * (`extensions.partialClone`, `remote.<name>.promisor`) makes git fetch a missing object on demand, even inside
 * `git status` (rename detection) or `cat-file`, and that fetch runs the repository's `core.sshCommand`,
 * `remote.<name>.uploadpack` or a `remote-<helper>`. `GIT_ALLOW_PROTOCOL=none` allows no transport at all (so no
 * fetch on any git version); `GIT_NO_LAZY_FETCH=1` tells newer git not to try. The sync mode's deliberate fetch and
 * push (gitRemote.ts, store/sync/) do not use this.
 */
export function noFetchGitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_ALLOW_PROTOCOL: 'none', GIT_NO_LAZY_FETCH: '1' };
}

/** The git arguments that list every filter and diff setting with the scope that set it. */
export const DRIVER_CONFIG_LISTING: readonly string[] = ['config', '-z', '--show-scope', '--get-regexp', '^(filter|diff)\\.'];

/** Scopes that are the local user's own choice; every other scope (local, worktree) belongs to the repository. */
const USER_SCOPES = new Set(['global', 'system', 'command']);

const PROGRAM_KEY = /^(filter)\.(.+)\.(clean|smudge|process|required)$|^(diff)\.(.+)\.(textconv|command)$|^diff\.external$/;

/**
 * Config overrides (key, value) that stop every program the repository's own config names for a filter or diff
 * driver, from the NUL-separated output of DRIVER_CONFIG_LISTING (`scope\0key\nvalue\0` per entry).
 */
export function repositoryProgramOverrides(listing: string): [string, string][] {
  const filters = new Set<string>();
  const diffs = new Set<string>();
  let external = false;
  const fields = listing.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i];
    const key = fields[i + 1].split('\n', 1)[0];
    if (USER_SCOPES.has(scope)) continue;
    const m = PROGRAM_KEY.exec(key);
    if (!m) continue;
    if (m[1]) filters.add(m[2]);
    else if (m[4]) diffs.add(m[5]);
    else external = true;
  }
  const out: [string, string][] = [];
  for (const name of filters) {
    // An empty command is no filter; `required=false` so that git does not fail for want of one.
    for (const v of ['clean', 'smudge', 'process']) out.push([`filter.${name}.${v}`, '']);
    out.push([`filter.${name}.required`, 'false']);
  }
  for (const name of diffs) for (const v of ['textconv', 'command']) out.push([`diff.${name}.${v}`, '']);
  // An empty external diff is not run: a diff that would need it fails instead.
  if (external) out.push(['diff.external', '']);
  return out;
}

/**
 * The options to put before a git command: SAFE_GIT_OPTIONS and `-c key=value` for each override of the listing.
 * Throws when a driver name holds `=`: `-c` would cut the key there and leave the driver's program on.
 */
export function safeGitArgs(listing: string): string[] {
  const args = [...SAFE_GIT_OPTIONS];
  for (const [key, value] of repositoryProgramOverrides(listing)) {
    if (key.includes('=')) {
      throw new Error(
        `the repository's git config names a filter or diff driver AgentSync cannot switch off (${JSON.stringify(key)}); ` +
          'so git was not run. Rename that driver in .git/config',
      );
    }
    args.push('-c', `${key}=${value}`);
  }
  return args;
}
