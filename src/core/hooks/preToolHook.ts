// The tool hooks' radar step (docs/agentsync-documentation.md, "Conflict radar"): which files the vendor's tool call is
// about to write, whether another agent's live claim lists one, and the vendor's answer (a warning, or a denial under
// "radar": "deny"). Node built-ins only: dist/hook.js runs it around every tool call and most calls write nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { radarHits, radarModeOf, radarText } from './conflictRadar';
import type { HookEvent, HookInput, Vendor } from './vendors/vendor';
import type { AgentSession } from '../domain/agentSession';

/**
 * The real path of `p`: its deepest existing ancestor resolved through every symlink, plus the rest (a file about to
 * be created does not exist yet). So an edit through a symlinked folder, or in a workspace reached through a symlink
 * (macOS `/tmp`), names the file the claim lists.
 */
function realOf(p: string): string {
  const rest: string[] = [];
  for (let head = p; ;) {
    try {
      return path.join(fs.realpathSync.native(head), ...rest);
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return p;
      rest.unshift(path.basename(head));
      head = parent;
    }
  }
}

/** `files` relative to `root`, `/`-separated, compared by real path; files outside the workspace are dropped. */
export function workspaceRelative(root: string, base: string, files: readonly string[]): string[] {
  const out: string[] = [];
  const realRoot = realOf(root);
  for (const f of files) {
    const rel = path.relative(realRoot, realOf(path.resolve(base, f)));
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) out.push(rel.split(path.sep).join('/'));
  }
  return out;
}

/** What the caller knows of where the hook runs, each asked only when the tool writes a file. */
export interface RadarWhere {
  /** The session the hook runs for: other sessions of the same agent are warned (docs/contract.md §4). */
  session?: () => AgentSession | null;
  /** The written files as the record names them (git/worktreePaths.ts: by the innermost worktree); else by `root`. */
  relative?: (root: string, base: string, files: readonly string[]) => string[];
}

function readOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/**
 * The vendor's answer to a tool call for the radar, or null for nothing to say. pre-tool-use warns (vendors that
 * read context before a tool) or denies; post-tool-use warns for a vendor whose warning comes with the tool's result.
 * `readStore` is the store's bytes as the store reads them (src/core/store/storeReader.ts), null for none; it is
 * called only when the call writes a file and the radar is on.
 */
export function radarAnswer(
  event: HookEvent,
  vendor: Vendor,
  input: HookInput,
  agent: string,
  root: string,
  nowMs: number,
  readStore: () => Buffer | null,
  where: RadarWhere = {},
): object | null {
  const dialect = vendor.preTool;
  if (!dialect) return null;
  if (event === 'post-tool-use' && dialect.warn.when !== 'after') return null;
  const written = dialect.writes(input);
  if (written.length === 0) return null;
  const mode = radarModeOf(readOrNull(path.join(root, '.agentsync.json'))?.toString('utf8') ?? null);
  if (mode === 'off') return null;
  if (event === 'post-tool-use' && mode === 'deny') return null; // denied before the tool ran
  const store = readStore();
  if (store === null) return null;
  const files = (where.relative ?? workspaceRelative)(root, vendor.folder(input) ?? root, written);
  const hits = radarHits(store, files, agent, nowMs, where.session?.() ?? null);
  if (hits.length === 0) return null;
  if (mode === 'deny' && event === 'pre-tool-use') return dialect.deny(radarText(hits, 'deny'));
  if (event === 'pre-tool-use' && dialect.warn.when !== 'before') return null;
  return dialect.warn.output(radarText(hits, dialect.warn.when));
}
