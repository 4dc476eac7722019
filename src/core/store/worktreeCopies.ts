// Linked worktrees' own copies of the committed store (docs/contract.md §14, upgrading): never read as the record,
// but a clone upgraded while its worktrees' copies diverged is told which records are only there, and the command
// that brings one over (`agentsync adopt`); nothing is merged silently.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handoffsFileSchema, type Handoff, type HandoffsFile } from '../domain/handoffSchema';
import type { WorkspaceLayout } from '../workspace/workspaceLayout';
import { MAX_STORE_BYTES } from './storeLimits';

/** Most records named per worktree in the notice; the rest are counted. */
const NAMED_PER_WORKTREE = 10;

export interface WorktreeCopy {
  /** The linked worktree's top folder. */
  readonly worktree: string;
  /** Its copy of the committed store, for this workspace. */
  readonly file: string;
}

/** The linked worktrees git lists for this clone (`<common>/worktrees/*` /gitdir), with their store copy's path. */
export function linkedWorktreeCopies(layout: WorkspaceLayout): WorktreeCopy[] {
  const placement = layout.placement;
  if (!placement) return [];
  const dir = path.join(placement.location.commonDir, 'worktrees');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: WorktreeCopy[] = [];
  for (const name of names.sort()) {
    try {
      const back = fs.readFileSync(path.join(dir, name, 'gitdir'), 'utf8').trim();
      const worktree = path.dirname(path.resolve(dir, name, back));
      out.push({ worktree, file: path.join(worktree, placement.inRepository, '.agentsync', 'handoffs.json') });
    } catch {
      // a worktree entry git would prune: no copy to read
    }
  }
  return out;
}

/** A copy's records, or null when it is missing, too large, a symlink or not a valid store. */
export function readCopy(file: string): HandoffsFile | null {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_STORE_BYTES) return null;
    const parsed = handoffsFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function identity(h: Handoff): string {
  return h.uid ?? `id:${h.handoff_id}`;
}

/** One line per linked worktree whose copy holds records `record` lacks (by uid), naming them and the command. */
export function otherWorktreeCopies(layout: WorkspaceLayout, record: HandoffsFile): string[] {
  const known = new Set(record.handoffs.map(identity));
  const lines: string[] = [];
  for (const copy of linkedWorktreeCopies(layout)) {
    const file = readCopy(copy.file);
    if (!file) continue;
    const only = file.handoffs.filter((h) => !known.has(identity(h)));
    if (only.length === 0) continue;
    const named = only.slice(0, NAMED_PER_WORKTREE).map((h) => h.handoff_id);
    const more = only.length > named.length ? ` and ${only.length - named.length} more` : '';
    lines.push(
      `worktree ${copy.worktree} holds ${only.length} record(s) only in its own copy, not in the record: ${named.join(', ')}${more}; ` +
        `nothing was merged. Bring one over with \`agentsync adopt <id> --from ${copy.worktree}\``,
    );
  }
  return lines;
}
