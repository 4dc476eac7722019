// Folders AgentSync writes into must be real folders of the workspace. A committed symlink (`.agentsync` → /etc,
// `.agentsync/audit` → ~) would otherwise make every write land outside it, so each path component below the
// workspace root is checked with lstat, never followed (docs/agentsync-documentation.md, "Guarantees and how they are kept").
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError } from '../domain/errors';

/** The components of `dir` below `root`, shallowest first; throws when `dir` is not inside `root`. */
function componentsBelow(root: string, dir: string): string[] {
  const rel = path.relative(path.resolve(root), path.resolve(dir));
  if (rel === '') return [];
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${dir} is not inside the workspace ${root}`);
  const out: string[] = [];
  let at = path.resolve(root);
  for (const part of rel.split(path.sep)) out.push((at = path.join(at, part)));
  return out;
}

function unsafe(root: string, dir: string, what: string): ActionError {
  const rel = path.relative(root, dir) || dir;
  return new ActionError(
    'store_unsafe',
    `${rel} is not a folder (it is ${what}); AgentSync will not write through it (it could point outside the workspace). ` +
      `Replace it with a real folder (e.g. \`rm ${rel} && mkdir ${rel}\`) and retry. Nothing was changed.`,
    { path: dir },
  );
}

function check(root: string, dir: string, st: fs.Stats): void {
  if (st.isSymbolicLink()) throw unsafe(root, dir, 'a symlink');
  if (!st.isDirectory()) throw unsafe(root, dir, 'a file or special file');
}

/** Refuses when any existing component of `dir` below `root` is a symlink or not a folder; missing ones are fine. */
export function assertSafeDirectory(root: string, dir: string): void {
  for (const d of componentsBelow(root, dir)) {
    const st = fs.lstatSync(d, { throwIfNoEntry: false });
    if (!st) return;
    check(root, d, st);
  }
}

/**
 * Creates `dir` one component at a time (never `recursive`, which follows symlinks) and checks each with lstat,
 * also after creating it: a link raced in between is refused, not written through.
 */
export function ensureSafeDirectory(root: string, dir: string): void {
  for (const d of componentsBelow(root, dir)) {
    let st = fs.lstatSync(d, { throwIfNoEntry: false });
    if (!st) {
      try {
        fs.mkdirSync(d);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      st = fs.lstatSync(d);
    }
    check(root, d, st);
  }
}
