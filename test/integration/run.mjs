#!/usr/bin/env node
// Runs the integration suite inside a real VS Code (scripts/editor/run-editor-tests.mjs), three times, then the demo:
//   1. on a seeded AgentSync workspace (the main suite; writes test-output/handoffs-tree.png, dashboard.png and
//      explorer-hot-files.png; media/dashboard.png and media/explorer-hot-files.png, shown in README.md, are copies),
//   2. on a plain folder (no activation until asked; the welcome view's Initialize),
//   3. on a seeded workspace whose state.json holds a session left open by this window's agent (session care),
//   4. the demo (test/integration/demo.test.mjs: serve-demo.mjs in a browser, its first minute read from the page).
// Builds nothing: run `npm run build` (dist/extension.js, dist/cli.js) and `npx tsc -p .` (out/test/integration) first.
//   6. worktree: the window on a LINKED worktree of an initialized clone (test/integration/worktree.test.ts): the shared
//      record, the drop zone of every worktree, Open in New Worktree.
//   5. installed: `npm run package`, the VSIX installed into the real VS Code with --install-extension (no development
//      copy of AgentSync: the window's development extension is an empty driver carrying the tests), on a seeded
//      workspace (test/integration/installed.test.ts).
// Usage: node test/integration/run.mjs [--keep] [--only main|uninitialized|session|installed|worktree|demo] [--files tree,delegation] [--verbose]
// --files runs only those test files of the pass (in the suite's order), each on a freshly seeded workspace.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seedScaleStore } from './seedScaleStore.mjs';
import { seedLinkedWorktree, seedWorkspace } from './seedWorkspace.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: opt } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    only: { type: 'string' },
    files: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

const needed = ['dist/extension.js', 'dist/cli.js', 'out/test/integration/index.js'];
const missing = needed.filter((f) => !existsSync(join(REPO, f)));
if (missing.length) {
  console.error(`test/integration/run.mjs: missing ${missing.join(', ')}. Run \`npm run build && npx tsc -p .\` first.`);
  process.exit(2);
}

const passes = [
  { name: 'main', initialized: true },
  { name: 'uninitialized', initialized: false },
  { name: 'session', initialized: true, openSessionOf: 'human' },
  { name: 'installed', initialized: true },
  { name: 'worktree', initialized: true, linked: true },
  { name: 'demo' },
].filter((p) => !opt.only || p.name === opt.only);

/** Pass "demo": README's demo as a browser shows it, checked from outside the editor (mocha in this Node). */
function runDemoPass() {
  console.log('\n== demo (scripts/editor/serve-demo.mjs in a browser)');
  const mocha = join(REPO, 'node_modules/mocha/bin/mocha.js');
  // The demo as a visitor runs it: none of the suite's variables (the test seam, a per-run consent file).
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('AGENTSYNC_')) delete env[k];
  const r = spawnSync(process.execPath, [mocha, '--no-config', '--timeout', '180000', join(REPO, 'test/integration/demo.test.mjs')], {
    stdio: 'inherit',
    env,
  });
  console.log(r.status === 0 ? '== demo: passed' : `== demo: FAILED (exit ${r.status ?? r.signal})`);
  return r.status === 0;
}

/**
 * Pass "installed": builds the VSIX as users get it (`npm run package`), and an empty extension to carry the tests
 * (the workbench runs tests only beside a development extension; this one contributes nothing).
 */
function packageAndDriver() {
  const started = Date.now();
  const r = spawnSync('npm', ['run', 'package'], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(
      `== installed: npm run package failed (exit ${r.status}):\n${(r.stdout + r.stderr).trim().split('\n').slice(-5).join('\n')}`,
    );
    return undefined;
  }
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  const vsix = join(REPO, `agentsync-${version}.vsix`);
  console.log(`== installed: npm run package built ${vsix} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const driver = mkdtempSync(join(tmpdir(), 'agentsync-it-driver-'));
  writeFileSync(
    join(driver, 'package.json'),
    JSON.stringify({ name: 'agentsync-installed-check', publisher: 'agentsync-test', version: '0.0.0', engines: { vscode: '^1.105.0' } }),
  );
  return { vsix, driver };
}

// The extension hands its internals (vscode/testSeam.ts) only to a window started with this variable.
process.env.AGENTSYNC_INTEGRATION_SUITE = '1';
// Read by test/integration/index.ts inside the extension host (the server passes its environment on).
if (opt.files) process.env.AGENTSYNC_IT_FILES = opt.files;
let failed = 0;
for (const pass of passes) {
  if (pass.name === 'demo') {
    if (!runDemoPass()) failed++;
    continue;
  }
  let ws = mkdtempSync(join(tmpdir(), `agentsync-it-${pass.name}-`));
  const tmpRoot = ws;
  if (pass.linked) {
    // The clone and its worktrees sit side by side in one temporary folder; the window opens the linked worktree.
    const { clone, linked } = seedLinkedWorktree(ws);
    process.env.AGENTSYNC_IT_MAIN_CHECKOUT = clone;
    ws = linked;
  } else seedWorkspace(ws, { initialized: pass.initialized, openSessionOf: pass.openSessionOf });
  // Which test files test/integration/index.ts runs in the editor.
  process.env.AGENTSYNC_IT_PASS = pass.name;
  // A 10,000-handoff store beside the workspace, for the tree's scale figures (treeScale.test.ts, pass "main").
  const scaleWs = pass.name === 'main' ? mkdtempSync(join(tmpdir(), `agentsync-it-scale-`)) : undefined;
  if (scaleWs) {
    seedScaleStore(scaleWs, 10_000);
    process.env.AGENTSYNC_IT_SCALE_WORKSPACE = scaleWs;
  }
  // The editor's consent to run .agentsync.json's commands goes to a per-run file, never the user's own records.
  const trustDir = mkdtempSync(join(tmpdir(), `agentsync-it-trust-${pass.name}-`));
  process.env.AGENTSYNC_TRUST_FILE = join(trustDir, 'trusted.json');
  console.log(`\n== integration suite (${pass.name}) on ${ws}`);
  const installed = pass.name === 'installed' ? packageAndDriver() : undefined;
  if (pass.name === 'installed' && !installed) {
    failed++;
    continue;
  }
  const args = [
    join(REPO, 'scripts/editor/run-editor-tests.mjs'),
    '--extension',
    installed?.driver ?? REPO,
    ...(installed ? ['--install', installed.vsix] : []),
    '--tests',
    join(REPO, 'out/test/integration/index.js'),
    '--workspace',
    ws,
    ...(pass.initialized && !pass.linked ? ['--screenshot', join(REPO, 'test-output/workbench-after-suite.png')] : []),
    ...(opt.verbose ? ['--verbose'] : []),
  ];
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`== ${pass.name}: FAILED (exit ${r.status ?? r.signal})`);
  } else console.log(`== ${pass.name}: passed`);
  if (opt.keep) console.log(`   workspace kept: ${ws}`);
  else rmSync(tmpRoot, { recursive: true, force: true });
  rmSync(trustDir, { recursive: true, force: true });
  if (scaleWs) rmSync(scaleWs, { recursive: true, force: true });
  if (installed) rmSync(installed.driver, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
