// `init`: creates what is missing (never overwrites), adds the runtime paths to .gitignore, and writes the AgentSync
// section into the agents' instruction files (docs/agentsync-documentation.md, "Initialize"); `hooks` also merges the hook packs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../disk/atomicFile';
import { assertSafeDirectory, ensureSafeDirectory } from '../disk/safeDirectory';
import { writeInstructionSections, type SectionReport } from './agentInstructions';
import { writeHookPacks, type HookPackReport } from '../hooks/hookPacks';
import { readTemplate } from './templates';
import { renderHandoffsSection } from '../domain/trackerRenderer';
import { WorkspaceLayout } from './workspaceLayout';

/** The config `init` writes when none exists (templates/agentsync.json); read when init runs, not when the CLI loads. */
export function defaultConfigText(): string {
  return readTemplate('agentsync.json');
}

/**
 * The tracker `init` writes when none exists: templates/AgentTracker.md with the (empty) generated section, byte for
 * byte what a render writes (its closing blank line included), so the first read of a fresh clone, which renders the
 * derived files it lacks, leaves the committed tracker as it is (docs/contract.md §14: reads dirty nothing).
 */
export function trackerTemplate(): string {
  return readTemplate('AgentTracker.md').replace(/\{\{handoffs\}\}\r?\n?/, () => renderHandoffsSection([]));
}

export interface InitReport {
  created: string[];
  kept: string[];
  gitignoreAdded: string[];
  instructions: SectionReport;
  hooks?: HookPackReport;
}

export interface InitOptions {
  /** Merge the hook packs of every vendor in src/core/hooks/vendors/ (`agentsync init --hooks`). */
  hooks?: boolean;
  /** The day the instruction examples' ids carry (tests fix it; default: today). */
  now?: Date;
}

/**
 * The store's part of init, given by the store (src/core/store/storeReader.ts, storeSeed), which alone says where
 * the state lives: the file to create where missing, and what an empty store holds.
 */
export interface StoreSeed {
  readonly file: string;
  readonly empty: string | Buffer;
}

function createIfMissing(file: string, text: string | Buffer, report: InitReport, root: string): void {
  const rel = path.relative(root, file);
  if (fs.existsSync(file) || isSymlink(file)) {
    report.kept.push(rel);
    return;
  }
  ensureSafeDirectory(root, path.dirname(file));
  writeFileAtomic(file, text);
  report.created.push(rel);
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

export function initWorkspace(root: string, store: StoreSeed, options: InitOptions = {}): InitReport {
  // What this checkout commits (its branch's files), never the clone's home or another worktree's files.
  const layout = WorkspaceLayout.ofCheckout(root);
  // Every folder init writes in, the instruction files and the hook packs are checked (symlinks, markers, JSON)
  // before anything is created: a refusal changes nothing.
  const dirs = [layout.requestsDir, layout.responsesDir, layout.auditDir];
  for (const dir of dirs) assertSafeDirectory(layout.root, dir);
  const hooks = options.hooks ? writeHookPacks(layout.root, readTemplate, { dryRun: true }) : undefined;
  const instructions = writeInstructionSections(layout.root, options.now);
  const report: InitReport = { created: [], kept: [], gitignoreAdded: [], instructions };
  if (hooks) report.hooks = writeHookPacks(layout.root, readTemplate);
  createIfMissing(layout.configFile, defaultConfigText(), report, layout.root);
  createIfMissing(store.file, store.empty, report, layout.root);
  createIfMissing(layout.trackerFile, trackerTemplate(), report, layout.root);
  for (const dir of dirs) ensureSafeDirectory(layout.root, dir);

  const gitignore = path.join(layout.root, '.gitignore');
  if (!isSymlink(gitignore)) {
    const existing = fs.existsSync(gitignore) ? fs.readFileSync(gitignore, 'utf8') : '';
    const lines = new Set(existing.split(/\r?\n/).map((l) => l.trim()));
    const missing = WorkspaceLayout.GITIGNORE_ENTRIES.filter((e) => !lines.has(e));
    if (missing.length) {
      const sep = existing.length && !existing.endsWith('\n') ? '\n' : '';
      fs.writeFileSync(
        gitignore,
        `${existing}${sep}${existing.includes('# AgentSync runtime files') ? '' : '# AgentSync runtime files\n'}${missing.join('\n')}\n`,
      );
      report.gitignoreAdded = missing;
    }
  }
  return report;
}
