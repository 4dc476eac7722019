// Which git worktree a folder is in, and where its clone's AgentSync home is (docs/contract.md §14), found by
// reading files only: the nearest `.git` entry (a folder, or a `gitdir:` file in a linked worktree or submodule), the
// `commondir` file its git dir names, and the common dir's config. No process is started, so the CLI's and the
// hooks' cost goals hold in a linked worktree, and no search climbs past the nearest `.git`: a worktree nested inside
// another (`.claude/worktrees/x`) is its own.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Git's name for the main worktree, as `git worktree list` and AgentSync's `claimed_session` show it. */
export const MAIN_WORKTREE_NAME = 'main';

/** The folder under the git common dir that holds every workspace's home. */
export const HOME_FOLDER = 'agentsync';

/** The home key of a workspace at the top of its repository (no relative path encodes to it: '@' is escaped). */
export const TOP_WORKSPACE_KEY = '@';

export interface WorktreeLocation {
  /** The folder holding the nearest `.git` entry (real path): the worktree's top. */
  readonly worktreeRoot: string;
  /** The worktree's own git dir: `<main>/.git`, or `<common>/worktrees/<name>` for a linked worktree. */
  readonly gitDir: string;
  /** The clone's common git dir (objects, refs, config), shared by all of its worktrees. */
  readonly commonDir: string;
  /** True for the main worktree (its git dir is the common dir). */
  readonly isMain: boolean;
  /** Git's name for the worktree: `main`, or the basename of `<common>/worktrees/<name>`. */
  readonly name: string;
  /** True when the clone is bare (`core.bare`): it has no main worktree, only linked ones. */
  readonly bare: boolean;
  /** The main worktree's top, from the common dir; null for a bare clone. */
  readonly mainWorktree: string | null;
}

export type WorktreeLookup =
  | { readonly ok: true; readonly location: WorktreeLocation }
  /** A `.git` entry was found but does not lead to a usable git dir: `problem` says what and what to do. */
  | { readonly ok: false; readonly worktreeRoot: string; readonly problem: string };

/** Small files git writes (`.git` files, `commondir`, `gitdir`); anything larger is not one of them. */
const MAX_POINTER_BYTES = 4096;
const MAX_CONFIG_BYTES = 1024 * 1024;

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync.native(path.resolve(p));
  } catch {
    return path.resolve(p);
  }
}

/** A small file git keeps (a pointer, a config, a ref), as text; null when missing, not a file or over `max` bytes. */
export function readSmall(file: string, max: number = MAX_POINTER_BYTES): string | null {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > max) return null;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether a `.git` folder is a git directory as git itself decides (HEAD, and objects/ and refs/ or a commondir): git
 * passes over any other `.git` folder on its way up, and so does AgentSync, which must never take a stray empty
 * `.git` (say in /tmp) for a clone and write its home there.
 */
function isGitDirectory(dir: string): boolean {
  try {
    if (!fs.statSync(path.join(dir, 'HEAD')).isFile()) return false;
  } catch {
    return false;
  }
  if (fs.existsSync(path.join(dir, 'commondir'))) return true;
  return isDirectory(path.join(dir, 'objects')) && isDirectory(path.join(dir, 'refs'));
}

/**
 * The nearest folder at or above `start` (real path) holding a `.git` entry (a file, or a folder that is a git
 * directory), or null when none up to the root.
 */
export function nearestGitEntry(start: string): string | null {
  let dir = realOrResolved(start);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    let entry: fs.Stats | null = null;
    try {
      entry = fs.lstatSync(dotGit);
    } catch {
      // no entry here: climb
    }
    if (entry !== null && (!isDirectory(dotGit) || isGitDirectory(dotGit))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** `[core] bare` and `[core] worktree` of a git config file, read as text (only the two keys this module needs). */
function coreSettings(configFile: string): { bare: boolean; worktree: string | null } {
  const text = readSmall(configFile, MAX_CONFIG_BYTES) ?? '';
  let inCore = false;
  let bare = false;
  let worktree: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inCore = /^\[\s*core\s*\]$/i.test(line);
      continue;
    }
    if (!inCore) continue;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    const value = (m[2] ?? 'true').replace(/\s*[#;].*$/, '').replace(/^"(.*)"$/, '$1');
    if (key === 'bare') bare = /^(true|yes|on|1)$/i.test(value);
    if (key === 'worktree') worktree = value;
  }
  return { bare, worktree };
}

/** The git dir a `.git` entry at `root` leads to, or a problem. */
function gitDirAt(root: string): { gitDir: string } | { problem: string } {
  const dotGit = path.join(root, '.git');
  if (isDirectory(dotGit)) return { gitDir: realOrResolved(dotGit) };
  const text = readSmall(dotGit, MAX_POINTER_BYTES);
  const m = text === null ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!m) return { problem: `${dotGit} is neither a git folder nor a "gitdir:" file git writes; run the command in a git checkout` };
  const target = path.resolve(root, m[1]);
  if (!isDirectory(target))
    return {
      problem:
        `${dotGit} points to ${target}, which does not exist: the worktree's main checkout was moved or deleted, or git ` +
        'pruned this worktree. Run `git worktree repair` from the main checkout (or `git worktree prune` there if this ' +
        'worktree is no longer wanted, then `git worktree add` to make it again)',
    };
  return { gitDir: realOrResolved(target) };
}

/** Each folder's lookup, once made, in a process that asked for it (rememberWorktrees); null: every call looks. */
let remembered: Map<string, WorktreeLookup | null> | null = null;

/**
 * From now on each folder is looked up once in this process. Only for a process that answers one call and exits (a
 * tool hook, around every tool call of an agent: its steps would otherwise read the same `.git` files several times);
 * a long-running one (the editor, `watch`, `mcp`) looks every time, so a worktree moved or repaired meanwhile is seen.
 */
export function rememberWorktrees(): void {
  remembered ??= new Map();
}

/** Where the folder `start` sits in git, or null when no `.git` entry is at or above it. */
export function findWorktree(start: string): WorktreeLookup | null {
  if (!remembered) return lookUp(start);
  if (!remembered.has(start)) remembered.set(start, lookUp(start));
  return remembered.get(start) ?? null;
}

function lookUp(start: string): WorktreeLookup | null {
  const worktreeRoot = nearestGitEntry(start);
  if (worktreeRoot === null) return null;
  const found = gitDirAt(worktreeRoot);
  if ('problem' in found) return { ok: false, worktreeRoot, problem: found.problem };
  const { gitDir } = found;
  const commonText = readSmall(path.join(gitDir, 'commondir'), MAX_POINTER_BYTES);
  // A `gitdir:` file leads to a whole git dir (a submodule's, with its objects) or to a linked worktree's admin folder,
  // which has no objects and names its clone in `commondir`: without that file it belongs to no clone we can tell, and
  // taking it for a clone of its own would start a second record.
  if (commonText === null && !isDirectory(path.join(worktreeRoot, '.git')) && !isDirectory(path.join(gitDir, 'objects')))
    return {
      ok: false,
      worktreeRoot,
      problem:
        `${gitDir} has no commondir file, so git cannot tell which clone the worktree ${worktreeRoot} belongs to. ` +
        "Restore it (it holds the path of the clone's git dir, `../..` for a worktree git made) or, if this worktree is " +
        'no longer wanted, delete it and run `git worktree prune` from the main checkout',
    };
  const commonDir = commonText === null ? gitDir : realOrResolved(path.resolve(gitDir, commonText.trim()));
  if (!isDirectory(commonDir))
    return {
      ok: false,
      worktreeRoot,
      problem: `${gitDir}/commondir names ${commonDir}, which does not exist: the clone this worktree belongs to was moved or deleted`,
    };
  const isMain = commonDir === gitDir;
  if (!isMain) {
    // A linked worktree moved by hand (not `git worktree move`): git's own back pointer names another folder.
    const back = readSmall(path.join(gitDir, 'gitdir'), MAX_POINTER_BYTES)?.trim();
    if (back && realOrResolved(path.dirname(path.resolve(gitDir, back))) !== worktreeRoot)
      return {
        ok: false,
        worktreeRoot,
        problem:
          `git records worktree ${path.basename(gitDir)} at ${path.dirname(back)}, not ${worktreeRoot}: it was moved without git. ` +
          `Run \`git worktree repair ${worktreeRoot}\` from the main checkout`,
      };
  }
  const core = coreSettings(path.join(commonDir, 'config'));
  let mainWorktree: string | null = null;
  if (!core.bare) {
    if (core.worktree) mainWorktree = realOrResolved(path.resolve(commonDir, core.worktree));
    else if (isMain) mainWorktree = worktreeRoot;
    else if (path.basename(commonDir) === '.git') mainWorktree = path.dirname(commonDir);
  }
  return {
    ok: true,
    location: {
      worktreeRoot,
      gitDir,
      commonDir,
      isMain,
      name: isMain ? MAIN_WORKTREE_NAME : path.basename(gitDir),
      bare: core.bare,
      mainWorktree,
    },
  };
}

/**
 * The home key of a workspace: its path relative to its worktree's top, so the same workspace in every worktree of
 * a clone has one home (monorepos keep one home per workspace). The top itself is TOP_WORKSPACE_KEY.
 */
export function homeKey(location: WorktreeLocation, workspaceRoot: string): string {
  const rel = path.relative(location.worktreeRoot, realOrResolved(workspaceRoot));
  if (rel === '') return TOP_WORKSPACE_KEY;
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${workspaceRoot} is not inside the worktree ${location.worktreeRoot}`);
  return encodeURIComponent(rel.split(path.sep).join('/')).replace(/[*!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The clone's home for a workspace: `<git-common-dir>/agentsync/<key>` (docs/contract.md §14). */
export function homeDir(location: WorktreeLocation, workspaceRoot: string): string {
  return path.join(location.commonDir, HOME_FOLDER, homeKey(location, workspaceRoot));
}

/** The folder in the main worktree that matches `workspaceRoot` of this worktree, or null (bare clone). */
export function mainWorkspaceOf(location: WorktreeLocation, workspaceRoot: string): string | null {
  if (location.mainWorktree === null) return null;
  const rel = path.relative(location.worktreeRoot, realOrResolved(workspaceRoot));
  return rel === '' ? location.mainWorktree : path.join(location.mainWorktree, rel);
}
