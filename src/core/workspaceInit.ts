// `init`: creates what is missing (never overwrites) and adds the runtime paths to .gitignore.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from './atomicFile';
import { ensureSafeDirectory } from './safeDirectory';
import { renderHandoffsSection } from './trackerRenderer';
import { WorkspaceLayout } from './workspaceLayout';

export const DEFAULT_CONFIG_TEXT = `{
  "staleAfterHours": 24,
  "autoStaleSessionMinutes": 0,
  "requireHandoffOnEndSession": false,
  "commands": {},
  "agentCapabilities": {
    "codex": ["code_patch", "test_authoring", "shell_checks"],
    "copilot": ["inline_refactor", "pr_review"],
    "claude": ["workflow_orchestration", "policy_review", "risk_decision"]
  },
  "humans": [],
  "maxAttempts": 3,
  "passOver": {}
}
`;

export function trackerTemplate(): string {
  return `# Agent Tracker\n\nNotes for humans go anywhere outside the sections AgentSync generates.\n\n${renderHandoffsSection([])}`;
}

export interface InitReport {
  created: string[];
  kept: string[];
  gitignoreAdded: string[];
}

function createIfMissing(file: string, text: string, report: InitReport, root: string): void {
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

export function initWorkspace(root: string): InitReport {
  const layout = new WorkspaceLayout(root);
  const report: InitReport = { created: [], kept: [], gitignoreAdded: [] };
  createIfMissing(layout.configFile, DEFAULT_CONFIG_TEXT, report, layout.root);
  createIfMissing(layout.handoffsFile, '{\n  "version": 1,\n  "handoffs": []\n}\n', report, layout.root);
  createIfMissing(layout.trackerFile, trackerTemplate(), report, layout.root);
  for (const dir of [layout.requestsDir, layout.responsesDir, layout.auditDir]) ensureSafeDirectory(layout.root, dir);

  const gitignore = path.join(layout.root, '.gitignore');
  if (!isSymlink(gitignore)) {
    const existing = fs.existsSync(gitignore) ? fs.readFileSync(gitignore, 'utf8') : '';
    const lines = new Set(existing.split(/\r?\n/).map((l) => l.trim()));
    const missing = WorkspaceLayout.GITIGNORE_ENTRIES.filter((e) => !lines.has(e));
    if (missing.length) {
      const sep = existing.length && !existing.endsWith('\n') ? '\n' : '';
      fs.writeFileSync(gitignore, `${existing}${sep}${existing.includes('# AgentSync runtime files') ? '' : '# AgentSync runtime files\n'}${missing.join('\n')}\n`);
      report.gitignoreAdded = missing;
    }
  }
  return report;
}
