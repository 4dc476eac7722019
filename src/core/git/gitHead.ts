// What a git dir's HEAD names, read from files (HEAD, loose refs, packed-refs) so that finding it starts no process
// (docs/contract.md §14: the CLI's and the hooks' cost goals hold in a linked worktree).
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface HeadOf {
  /** The branch HEAD is on (`main`), or null when detached. */
  readonly branch: string | null;
  /** The commit HEAD names, or null when it cannot be read (an unborn branch, a broken ref). */
  readonly commit: string | null;
}

const MAX_REF_BYTES = 4096;
const MAX_PACKED_REFS_BYTES = 64 * 1024 * 1024;

function readText(file: string, max: number): string | null {
  try {
    const st = fs.statSync(file);
    return st.isFile() && st.size <= max ? fs.readFileSync(file, 'utf8') : null;
  } catch {
    return null;
  }
}

/** The commit a full ref name points to: its loose file in `commonDir`, else its line in packed-refs. */
export function resolveRef(commonDir: string, ref: string): string | null {
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(ref) || ref.includes('..')) return null;
  const loose = readText(path.join(commonDir, ...ref.split('/')), MAX_REF_BYTES)?.trim();
  if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  const packed = readText(path.join(commonDir, 'packed-refs'), MAX_PACKED_REFS_BYTES) ?? '';
  for (const line of packed.split('\n')) {
    const [sha, name] = line.trim().split(' ');
    if (name === ref && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return null;
}

/** HEAD of the worktree whose git dir is `gitDir` (its refs live in `commonDir`). */
export function headOf(gitDir: string, commonDir: string): HeadOf {
  const head = readText(path.join(gitDir, 'HEAD'), MAX_REF_BYTES)?.trim() ?? '';
  const sym = /^ref:\s*(\S+)$/.exec(head);
  if (sym) return { branch: sym[1].replace(/^refs\/heads\//, ''), commit: resolveRef(commonDir, sym[1]) };
  return { branch: null, commit: /^[0-9a-f]{40,64}$/.test(head) ? head : null };
}
