// `agentsync merge-driver %O %A %B`: git's merge driver for .agentsync/handoffs.json (DESIGN §8), and what
// `agentsync init --git` needs to register it. git calls the driver with the ancestor, ours (where the result goes)
// and theirs as temp files; exit 0 means merged, anything else makes git report a conflict.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/atomicFile';
import { describeIssues, handoffsFileSchema, type HandoffsFile } from '../core/handoffSchema';
import { mergeStores } from '../core/storeMerge';
import { UsageError } from './cliContext';
import type { Verb } from './handoffVerbs';

class InputError extends Error {}

/** Reads and validates one of git's three versions. An empty ancestor means "no common version" (both added the file). */
function readVersion(file: string, label: string): HandoffsFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read the ${label} version (${file}): ${(e as Error).message}`);
  }
  if (label === 'base' && text.trim() === '') return { version: 1, handoffs: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new InputError(`the ${label} version is not valid JSON (${(e as Error).message})`);
  }
  const parsed = handoffsFileSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`the ${label} version does not match the handoffs.json schema: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

export const mergeDriverVerb: Verb = {
  usage: '<base %O> <ours %A> <theirs %B>',
  summary: 'git merge driver for .agentsync/handoffs.json (register it with `agentsync init --git`); writes the merge into the ours file',
  options: {},
  run: async (ctx, _values, pos) => {
    if (pos.length !== 3) throw new UsageError('expected three files: the base (%O), ours (%A, receives the result) and theirs (%B)');
    const [basePath, oursPath, theirsPath] = pos.map((p) => path.resolve(p));
    let text: string;
    let notes: ReturnType<typeof mergeStores>['notes'];
    let count: number;
    try {
      const base = readVersion(basePath, 'base');
      const ours = readVersion(oursPath, 'ours');
      const theirs = readVersion(theirsPath, 'theirs');
      const result = mergeStores(base, ours, theirs, new Date());
      const checked = handoffsFileSchema.safeParse(result.file);
      if (!checked.success) throw new InputError(`the merged file would not be valid (${describeIssues(checked.error)})`);
      text = JSON.stringify(checked.data, null, 2) + '\n';
      notes = result.notes;
      count = checked.data.handoffs.length;
    } catch (e) {
      const message = `${(e as Error).message}. Nothing was written: git will report a conflict in .agentsync/handoffs.json; fix the broken version (or resolve by hand) and validate it with \`agentsync list\`.`;
      if (ctx.json) ctx.io.out(JSON.stringify({ ok: false, action: 'merge-driver', timestamp: new Date().toISOString(), reason: 'store_invalid', message }));
      else ctx.io.err(`agentsync merge-driver: ${message}`);
      return 1;
    }
    writeFileAtomic(oursPath, text);
    if (ctx.json) ctx.io.out(JSON.stringify({ ok: true, action: 'merge-driver', timestamp: new Date().toISOString(), data: { handoffs: count, notes } }));
    else for (const n of notes) if (n.kind === 'conflict' || n.kind === 'renumbered' || n.kind === 'kept') ctx.io.err(`agentsync merge-driver: ${n.message}`);
    return 0;
  },
};

export const GITATTRIBUTES_LINE = '.agentsync/handoffs.json merge=agentsync';
/** Append-only files merge by keeping both sides' new lines (git's built-in union driver). */
export const GITATTRIBUTES_UNION_LINES = ['.agentsync/audit/*.jsonl merge=union', 'decisions.md merge=union'];

function git(root: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  if (r.error) throw new Error(`cannot run git (${r.error.message}); install git, or leave out --git`);
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}`.trim() };
}

/** Throws a clear error when `root` is not inside a git work tree; called before init changes anything. */
export function assertGitRepo(root: string): void {
  if (!git(root, ['rev-parse', '--is-inside-work-tree']).ok) {
    throw new Error(`${root} is not inside a git repository, so there is nothing to register the merge driver in. Run \`git init\` first, or leave out --git`);
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

export interface GitRegistration {
  driver: string;
  gitattributes: 'created' | 'appended' | 'unchanged';
}

/** Sets merge.agentsync.* in the repo's config and maps handoffs.json to it in the workspace's .gitattributes (once). */
export function registerMergeDriver(root: string): GitRegistration {
  assertGitRepo(root);
  const driver = `node ${shellWord(cliScript())} merge-driver %O %A %B`;
  for (const [key, value] of [['merge.agentsync.name', 'AgentSync handoffs merge'], ['merge.agentsync.driver', driver]]) {
    const r = git(root, ['config', key, value]);
    if (!r.ok) throw new Error(`git config ${key} failed: ${r.out}`);
  }
  const file = path.join(root, '.gitattributes');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  const present = new Set((existing ?? '').split(/\r?\n/).map((l) => l.trim().split(/\s+/).join(' ')));
  const missing = [GITATTRIBUTES_LINE, ...GITATTRIBUTES_UNION_LINES].filter((l) => !present.has(l));
  if (missing.length === 0) return { driver, gitattributes: 'unchanged' };
  const sep = existing && !existing.endsWith('\n') ? '\n' : '';
  writeFileAtomic(file, `${existing ?? ''}${sep}${missing.join('\n')}\n`);
  return { driver, gitattributes: existing === null ? 'created' : 'appended' };
}
