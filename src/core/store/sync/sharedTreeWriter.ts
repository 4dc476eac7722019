// Writes a shared-state commit (sharedTreeLayout.ts) in ONE
// git process: `git fast-import` builds the new tree from the parent commit's, loading only the trees on the changed
// paths, and writes only the changed blobs (as loose objects: unpackLimit, so a write does not leave one tiny pack
// file per commit). The commit lands on a scratch ref of AgentSync's own, never on the fetched ref: only a push that
// succeeded moves that (sharedStateRef.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runGitPlumbing } from '../../git/gitCommand';
import { stateGitDir } from '../../git/stateRepository';

/** A path's new content, or null to remove it; or an object the repository holds, put at the path (a move). */
export type TreeChange = { path: string; data: Buffer | string | null } | { path: string; oid: string };

export interface WriteCommit {
  /** The scratch ref fast-import writes (refs/agentsync-scratch/...). */
  scratchRef: string;
  parent: string | null;
  message: string;
  changes: readonly TreeChange[];
  /** Seconds since the epoch, for the committer line. */
  when: number;
}

function dataCommand(data: Buffer | string): Buffer[] {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return [Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n')];
}

/** The fast-import stream for one commit: its changes relative to `parent` (`from`), marked :1. */
export function fastImportStream(w: WriteCommit): Buffer {
  const parts: Buffer[] = [
    Buffer.from(`commit ${w.scratchRef}\nmark :1\ncommitter AgentSync <agentsync@localhost> ${w.when} +0000\n`),
    ...dataCommand(w.message),
  ];
  if (w.parent) parts.push(Buffer.from(`from ${w.parent}\n`));
  for (const c of w.changes) {
    if (/[\n"]/.test(c.path) || c.path.startsWith('/')) throw new Error(`not a shared-state path: ${JSON.stringify(c.path)}`);
    if ('oid' in c) {
      if (!/^[0-9a-f]{40,64}$/.test(c.oid)) throw new Error(`not an object id: ${JSON.stringify(c.oid)}`);
      parts.push(Buffer.from(`M 100644 ${c.oid} ${c.path}\n`));
    } else if (c.data === null) parts.push(Buffer.from(`D ${c.path}\n`));
    else parts.push(Buffer.from(`M 100644 inline ${c.path}\n`), ...dataCommand(c.data));
  }
  parts.push(Buffer.from('\ndone\n'));
  return Buffer.concat(parts);
}

/** Writes the commit into the repository `root` is in, or into `gitDir` (the state repository); its id. One git process. */
export function writeSharedCommit(root: string, w: WriteCommit, gitDir?: string): string {
  const marks = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-marks-'));
  const file = path.join(marks, 'marks');
  try {
    const args = [
      ...(gitDir ? [stateGitDir(gitDir)] : []),
      '-c',
      'fastimport.unpackLimit=1000',
      'fast-import',
      '--quiet',
      '--force',
      '--done',
      `--export-marks=${file}`,
    ];
    const r = runGitPlumbing(root, args, fastImportStream(w));
    if (!r.ok) throw new Error(`git fast-import failed: ${r.stderr.trim()}`);
    const m = /^:1 ([0-9a-f]{40,64})$/m.exec(fs.readFileSync(file, 'utf8'));
    if (!m) throw new Error('git fast-import wrote no commit');
    return m[1];
  } finally {
    fs.rmSync(marks, { recursive: true, force: true });
  }
}
