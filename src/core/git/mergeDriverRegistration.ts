// `init --git`: registers the merge drivers in the repository's local git config (the user's consent: never
// committed) and maps the files to them in .gitattributes (docs/agentsync-documentation.md, "Merging with git").
// The CLI and the editor's Initialize both call this.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { ensureSafeDirectory } from '../disk/safeDirectory';
import { runGit } from './gitCommand';

export const GITATTRIBUTES_LINE = '.agentsync/handoffs.json merge=agentsync';
export const GITATTRIBUTES_TRACKER_LINE = 'AgentTracker.md merge=agentsync-tracker';
/** Append-only files merge by keeping both sides' new lines (git's built-in union driver). */
export const GITATTRIBUTES_UNION_LINES = [
  '.agentsync/audit/*.jsonl merge=union',
  '.agentsync/archive/*.jsonl merge=union',
  'decisions.md merge=union',
];

function git(root: string, args: string[]): { ok: boolean; out: string } {
  try {
    return runGit(root, args);
  } catch (e) {
    throw new Error(`${(e as Error).message}, or leave out --git`);
  }
}

/** Throws a clear error when `root` is not inside a git work tree; called before init changes anything. */
export function assertGitRepo(root: string): void {
  if (!git(root, ['rev-parse', '--is-inside-work-tree']).ok) {
    throw new Error(
      `${root} is not inside a git repository, so there is nothing to register the merge driver in. Run \`git init\` first, or leave out --git`,
    );
  }
}

/** bin/agentsync.js of this installation: the bundle runs from dist/, the compiled tests from out/src/cli/. */
function cliScript(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'bin', 'agentsync.js');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`cannot find bin/agentsync.js above ${__dirname}`);
  }
}

/** git runs the driver through the shell: quote the path unless it is plainly safe. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * An `agentsync` a user installed on PATH (`npm i -g`): its path stays the same across upgrades. Entries npm or npx
 * put on PATH only while they run (node_modules/.bin, the _npx cache) do not count: git will not see them later.
 */
function agentsyncOnPath(env: NodeJS.ProcessEnv = process.env): boolean {
  const names = process.platform === 'win32' ? ['agentsync.cmd', 'agentsync.exe'] : ['agentsync'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || /(^|[\\/])(node_modules|_npx)([\\/]|$)/.test(dir)) continue;
    for (const name of names) {
      try {
        fs.accessSync(path.join(dir, name), fs.constants.X_OK);
        return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}

/**
 * The shim git runs when `agentsync` is not on PATH: it looks for the CLI when a merge happens, not when init ran.
 * The install that registered it first; if that folder is gone (an editor extension lives in a versioned folder,
 * `<publisher>.agentsync-0.4.0`, replaced by `-0.5.0` on upgrade), the newest sibling of the same name; then an
 * `agentsync` on PATH. It lives in the repository's .git folder: local, never committed.
 */
export function shimSource(recordedCli: string): string {
  return `// Written by \`agentsync init --git\` (AgentSync's git merge drivers). Finds the AgentSync CLI at merge time.
'use strict';
const fs = require('fs');
const path = require('path');
const recorded = ${JSON.stringify(recordedCli)};
const install = path.dirname(path.dirname(recorded));
const versioned = /^(.+)-(\\d+)\\.(\\d+)\\.(\\d+)([^\\\\/]*)$/;
function candidates() {
  const out = [recorded];
  const own = versioned.exec(path.basename(install));
  if (!own) return out;
  let names = [];
  try { names = fs.readdirSync(path.dirname(install)); } catch { return out; }
  const newer = names.map((n) => [n, versioned.exec(n)]).filter(([, m]) => m && m[1] === own[1]);
  newer.sort(([, a], [, b]) => (b[2] - a[2]) || (b[3] - a[3]) || (b[4] - a[4]));
  for (const [n] of newer) out.push(path.join(path.dirname(install), n, 'bin', 'agentsync.js'));
  return out;
}
const found = candidates().find((c) => fs.existsSync(c));
if (found) {
  require(found);
} else {
  const r = require('child_process').spawnSync('agentsync', process.argv.slice(2), { stdio: 'inherit' });
  if (r.error) {
    console.error('AgentSync merge driver: cannot find the AgentSync CLI (it was at ' + recorded + '). Install it, then run \`agentsync init --git\` again.');
    process.exit(1);
  }
  process.exit(r.status === null ? 1 : r.status);
}
`;
}

/** What git runs for `agentsync <verb> ...`: `agentsync` itself when on PATH, else the shim in .git. */
function driverCommand(root: string): string {
  if (agentsyncOnPath()) return 'agentsync';
  const r = git(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (!r.ok) throw new Error(`cannot find the repository's .git folder: ${r.out}`);
  const shim = path.join(r.out.trim(), 'agentsync', 'cli.cjs');
  ensureSafeDirectory(path.dirname(path.dirname(shim)), path.dirname(shim)); // .git/agentsync a symlink: refused
  writeFileAtomic(shim, shimSource(cliScript()));
  return `node ${shellWord(shim)}`;
}

export interface GitRegistration {
  driver: string;
  tracker_driver: string;
  gitattributes: 'created' | 'appended' | 'unchanged';
}

/** Sets merge.agentsync*.* in the repo's config and maps the files to them in the workspace's .gitattributes (once). */
export function registerMergeDriver(root: string): GitRegistration {
  assertGitRepo(root);
  const command = driverCommand(root);
  const driver = `${command} merge-driver %O %A %B %P`;
  const trackerDriver = `${command} merge-tracker %O %A %B %P`;
  const settings = [
    ['merge.agentsync.name', 'AgentSync handoffs merge'],
    ['merge.agentsync.driver', driver],
    ['merge.agentsync-tracker.name', 'AgentSync tracker merge'],
    ['merge.agentsync-tracker.driver', trackerDriver],
  ];
  for (const [key, value] of settings) {
    const r = git(root, ['config', key, value]);
    if (!r.ok) throw new Error(`git config ${key} failed: ${r.out}`);
  }
  const file = path.join(root, '.gitattributes');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  const present = new Set((existing ?? '').split(/\r?\n/).map((l) => l.trim().split(/\s+/).join(' ')));
  const missing = [GITATTRIBUTES_LINE, GITATTRIBUTES_TRACKER_LINE, ...GITATTRIBUTES_UNION_LINES].filter((l) => !present.has(l));
  if (missing.length === 0) return { driver, tracker_driver: trackerDriver, gitattributes: 'unchanged' };
  const sep = existing && !existing.endsWith('\n') ? '\n' : '';
  writeFileAtomic(file, `${existing ?? ''}${sep}${missing.join('\n')}\n`);
  return { driver, tracker_driver: trackerDriver, gitattributes: existing === null ? 'created' : 'appended' };
}
