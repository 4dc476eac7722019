// Entry of the integration suite (extensionTestsPath): runs INSIDE the real VS Code extension host, like
// @vscode/test-electron would, and drives mocha. Order matters only for the screenshot, taken while the
// seeded store is still untouched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { figures, REPO_ROOT, workspaceRoot } from './helpers';

/** The seeded workspace (run.mjs pass "main"). */
const MAIN = [
  'activation',
  'tree',
  'badge',
  'screenshot',
  'dashboard',
  'handoffCommands',
  'sessionCommands',
  'workspaceCommands',
  'dropZone',
  'conflicts',
  'delegation',
  'fileReview',
  'languageModelTools',
  'dashboardActions',
  'trust',
  'treeScale',
  'hotFiles',
  'walkthrough',
  'sync',
];
/** A plain folder (pass "uninitialized"): no activation until asked, the welcome view, Initialize. */
const UNINITIALIZED = ['uninitialized'];
/** A seeded workspace with a session of this window's agent left open (pass "session"). */
const SESSION = ['sessionCare', 'zeroTouch'];
/** A seeded workspace, the extension installed from the VSIX (pass "installed"). */
const INSTALLED = ['installed'];
/** A linked worktree of a seeded, initialized clone (pass "worktree"). */
const WORKTREE = ['worktree'];

export async function run(): Promise<void> {
  // mocha from the repo's node_modules, by absolute path (the extension host has no resolution root of its own).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time path; see above
  const mod = require(path.join(REPO_ROOT, 'node_modules/mocha')) as typeof Mocha & { default?: typeof Mocha };
  const MochaClass = mod.default ?? mod;
  const mocha = new MochaClass({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const initialized = fs.existsSync(path.join(workspaceRoot(), '.agentsync.json'));
  const pass = process.env.AGENTSYNC_IT_PASS ?? (initialized ? 'main' : 'uninitialized');
  const byPass: Record<string, string[]> = { session: SESSION, uninitialized: UNINITIALIZED, installed: INSTALLED, worktree: WORKTREE };
  const files = byPass[pass] ?? MAIN;
  // run.mjs --files: only the named files, still in the suite's order.
  const only = process.env.AGENTSYNC_IT_FILES?.split(',').map((f) => f.trim());
  for (const f of files) if (!only || only.includes(f)) mocha.addFile(path.join(__dirname, `${f}.test.js`));
  await mocha.loadFilesAsync();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  console.log('AgentSync editor figures:');
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v}`);
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
