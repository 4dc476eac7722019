#!/usr/bin/env node
// For people: serves a real VS Code (web) with this repo's extension loaded on a demo
// workspace, so the product can be seen without installing anything by hand.
// Usage: node scripts/editor/serve-demo.mjs [--workspace <dir>] [--port N] [--minutes M]
// Bound to 127.0.0.1 only; stops by itself after --minutes (default 120) so nothing lingers.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, SERVER_MAIN, startEditorServer, workbenchUrl } from './server.mjs';
import { prepareDemoScene } from './demoScene.mjs';
import { startWorkbenchProxy } from './workbenchProxy.mjs';

const { values: opt } = parseArgs({
  options: { workspace: { type: 'string' }, port: { type: 'string' }, minutes: { type: 'string', default: '120' } },
});

if (!existsSync(SERVER_MAIN)) {
  const r = spawnSync('bash', [join(REPO_ROOT, 'scripts/editor/install-code-server.sh')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status || 1);
}
const main = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).main;
if (main && !existsSync(resolve(REPO_ROOT, main))) {
  console.warn(`[demo] ${main} is missing: run \`npm run build\` first, or the extension will not activate.`);
}

// A throw-away copy, so playing with the demo never edits the checked-in files.
let workspace = opt.workspace && resolve(opt.workspace);
let ownWorkspace = false;
if (!workspace) {
  workspace = mkdtempSync(join(tmpdir(), 'agentsync-demo-'));
  ownWorkspace = true;
  const demo = join(REPO_ROOT, 'demo/workspace');
  if (existsSync(demo)) cpSync(demo, workspace, { recursive: true });
  // Every feature in the first minute: git with a changed file, a stale handoff, another agent's claim, a chain.
  if (existsSync(demo)) process.env.AGENTSYNC_DEMO_REVEAL_HANDOFF = prepareDemoScene(workspace).chainId;
}

// A first-time visitor should land on AgentSync: no welcome page or walkthrough (user and machine settings of this
// throw-away server), and the extension opens its own view at start when AGENTSYNC_DEMO_SHOW_VIEW is set, and reveals
// the chain in the tree (AGENTSYNC_DEMO_REVEAL_HANDOFF; src/vscode/demoStart.ts): the extension host inherits the
// server's environment.
const serverDir = mkdtempSync(join(tmpdir(), 'agentsync-editor-'));
const settings = JSON.stringify(
  {
    'workbench.startupEditor': 'none',
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.tips.enabled': false,
    'security.workspace.trust.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  },
  null,
  2,
);
for (const dir of [join(serverDir, 'ud/User'), join(serverDir, 'sd/data/Machine'), join(serverDir, 'sd/data/User')]) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), settings);
}
process.env.AGENTSYNC_DEMO_SHOW_VIEW = '1';
if (ownWorkspace) process.env.AGENTSYNC_DEMO_OPEN_FILE = 'src/auth/session.ts'; // Claude's claim: the ⇄ badge

const server = await startEditorServer({ tmpDir: serverDir });
// The visitor's address is a proxy that tells the workbench to open a new workspace on the Handoffs view (its
// `defaultLayout` option): VS Code would otherwise show the Explorer until the extension is up (workbenchProxy.mjs).
const proxy = await startWorkbenchProxy({
  upstreamPort: server.port,
  port: opt.port ? Number(opt.port) : undefined,
  options: { defaultLayout: { views: [{ id: 'agentsync.handoffs' }] } },
});
const url = workbenchUrl({ port: proxy.port, folder: workspace, extensionDevelopmentPath: REPO_ROOT });
const minutes = Number(opt.minutes);
console.log(`\nAgentSync demo: open this address in a browser on this machine\n\n  ${url}\n`);
console.log(`workspace: ${workspace}${ownWorkspace ? ' (temporary copy)' : ''}`);
console.log(`stops after ${minutes} minutes, or on Ctrl-C\n`);

const stop = (why) => {
  console.log(`[demo] stopping (${why})`);
  proxy.close();
  server.stop();
  rmSync(serverDir, { recursive: true, force: true });
  if (ownWorkspace) rmSync(workspace, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', () => stop('Ctrl-C'));
process.on('SIGTERM', () => stop('SIGTERM'));
setTimeout(() => stop(`${minutes} minutes are up`), minutes * 60_000);

// A request from an agent arrives a few seconds after the extension is up (it creates requests/ when its drop zone
// starts): the visitor sees the drop zone answer it and the new handoff appear under "Assigned to me".
const requestsDir = join(workspace, '.agentsync/requests');
const dropIn = setInterval(() => {
  if (!existsSync(requestsDir)) return;
  clearInterval(dropIn);
  setTimeout(() => {
    const request = {
      action: 'createHandoff',
      request_id: `demo-${Date.now()}`,
      handoff: {
        from_agent: 'codex',
        to_agents: ['human'],
        owner_mode: 'single',
        summary: 'Review the session-expiry test Codex just wrote',
        notes: 'Dropped into .agentsync/requests/ by the demo, as an agent without an MCP connection would.',
        files: ['tests/auth/session.test.ts'],
      },
    };
    // Written outside requests/ and renamed in, as docs/agentsync-documentation.md asks of agents.
    const temp = join(workspace, '.agentsync/demo-request.tmp');
    writeFileSync(temp, JSON.stringify(request, null, 2));
    renameSync(temp, join(requestsDir, 'codex-review-request.json'));
    console.log('[demo] an agent dropped a request into .agentsync/requests/ (codex → you: review the session-expiry test)');
  }, 5000);
}, 500);
