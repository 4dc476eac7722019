#!/usr/bin/env node
// For people: serves a real VS Code (web) with this repo's extension loaded on a demo
// workspace, so the product can be seen without installing anything by hand.
// Usage: node scripts/editor/serve-demo.mjs [--workspace <dir>] [--port N] [--minutes M]
// Bound to 127.0.0.1 only; stops by itself after --minutes (default 120) so nothing lingers.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, SERVER_MAIN, startEditorServer, workbenchUrl } from './server.mjs';

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
}

const server = await startEditorServer({ port: opt.port ? Number(opt.port) : undefined });
const url = workbenchUrl({ port: server.port, folder: workspace, extensionDevelopmentPath: REPO_ROOT });
const minutes = Number(opt.minutes);
console.log(`\nAgentSync demo: open this address in a browser on this machine\n\n  ${url}\n`);
console.log(`workspace: ${workspace}${ownWorkspace ? ' (temporary copy)' : ''}`);
console.log(`stops after ${minutes} minutes, or on Ctrl-C\n`);

const stop = (why) => {
  console.log(`[demo] stopping (${why})`);
  server.stop();
  if (ownWorkspace) rmSync(workspace, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', () => stop('Ctrl-C'));
process.on('SIGTERM', () => stop('SIGTERM'));
setTimeout(() => stop(`${minutes} minutes are up`), minutes * 60_000);
