// The sync mode's own repository (docs/contract.md §13, "Where the state's objects live"): a bare repository at
// `<git-common-dir>/agentsync/@state.git`, beside the clone's homes (no home key can be `@state.git`: keys escape
// `@`). The shared state's objects and AgentSync's private refs live there, never in the user's repository, so a
// clone's first sync fetches only the ref's last commit (`--depth=1`) without making the user's clone shallow, and
// the state's history never weighs on the user's `git gc`. Its config includes the clone's own (`../../config`), so
// the remote, its URL and its credentials are the user's, read under the same safety options as every git
// AgentSync runs (gitSafety.ts); its own `core` settings come after the include, so they win.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import { runGitPlumbing } from './gitCommand';
import { REMOTE_PROGRAM_OPTIONS } from './gitRemote';
import { HOME_FOLDER } from './worktreeLocation';

export const STATE_REPOSITORY = '@state.git';

/** Where a clone's state repository is. */
export function stateRepositoryDir(commonDir: string): string {
  return path.join(commonDir, HOME_FOLDER, STATE_REPOSITORY);
}

/** The git option that points a command at the state repository. */
export function stateGitDir(dir: string): string {
  return `--git-dir=${dir}`;
}

/**
 * The state repository of the clone whose common git folder is `commonDir` (the user's workspace `root` inside it),
 * made on first use. An earlier build kept `carried` refs (the fetched shared state) in the user's repository: they
 * are fetched over locally (their whole history, so the descent check still has what this clone adopted), then
 * removed there with `dropped`, leaving their objects to the user's next `git gc`. Made aside and renamed into place,
 * so two processes making it at once leave one whole repository.
 */
export function ensureStateRepository(root: string, commonDir: string, carried: readonly string[], dropped: readonly string[]): string {
  const dir = stateRepositoryDir(commonDir);
  // A symlink on the way (the homes' folder or the repository itself) is refused, never written through.
  assertSafeDirectory(commonDir, dir);
  if (fs.existsSync(path.join(dir, 'HEAD'))) return dir;
  ensureSafeDirectory(commonDir, path.dirname(dir));
  const aside = `${dir}.${process.pid}.${Date.now()}.tmp`;
  try {
    const format = runGitPlumbing(root, ['rev-parse', '--show-object-format']);
    const objectFormat = format.ok && format.stdout.trim() === 'sha256' ? ['--object-format=sha256'] : [];
    must(runGitPlumbing(root, ['init', '--quiet', '--bare', ...objectFormat, aside]), 'init');
    const config = path.join(aside, 'config');
    fs.writeFileSync(config, `[include]\n\tpath = ../../config\n${fs.readFileSync(config, 'utf8')}`);
    const held = carried.filter((ref) => runGitPlumbing(root, ['rev-parse', '--verify', '--quiet', ref]).ok);
    if (held.length) {
      const refspecs = held.map((ref) => `+${ref}:${ref}`);
      must(
        runGitPlumbing(root, [stateGitDir(aside), 'fetch', '--quiet', '--no-tags', REMOTE_PROGRAM_OPTIONS.fetch, commonDir, ...refspecs]),
        'fetch',
      );
    }
    try {
      fs.renameSync(aside, dir);
    } catch (e) {
      // Another process made it meanwhile: theirs is whole, ours goes.
      if (!fs.existsSync(path.join(dir, 'HEAD'))) throw e;
    }
  } finally {
    fs.rmSync(aside, { recursive: true, force: true });
  }
  for (const ref of dropped) runGitPlumbing(root, ['update-ref', '-d', ref]);
  return dir;
}

function must(r: { ok: boolean; stderr: string }, what: string): void {
  if (!r.ok) throw new Error(`git ${what} for AgentSync's state repository failed: ${r.stderr.trim()}`);
}

/** Whether the repository at `dir` has `ref`, read from its files (loose or packed): no git process. */
export function hasRef(dir: string, ref: string): boolean {
  if (fs.existsSync(path.join(dir, ref))) return true;
  try {
    return fs.readFileSync(path.join(dir, 'packed-refs'), 'latin1').includes(` ${ref}\n`);
  } catch {
    return false;
  }
}

/** Whether the state repository holds only part of the history (a `--depth` fetch made it shallow). */
export function isShallow(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'shallow'));
}

/**
 * Packs the state repository's loose objects when git's own measure says so (`gc --auto`: more than about 27 loose
 * objects in `objects/17`, git's default threshold): nobody else runs git there, and a write leaves a few loose objects.
 * Counting that one folder is all a fetch pays when nothing is due; git then packs in the background (gc.autoDetach).
 */
export function tidyStateRepository(root: string, dir: string): void {
  let loose = 0;
  try {
    loose = fs.readdirSync(path.join(dir, 'objects', '17')).length;
  } catch {
    return;
  }
  if (loose > 27) runGitPlumbing(root, [stateGitDir(dir), 'gc', '--auto', '--quiet']);
}
