#!/usr/bin/env node
// Runs an extension's integration tests inside a real VS Code (web workbench + remote
// extension host from code-server) driven by Debian's Chromium, and exits with their code.
// Usage: node scripts/editor/run-editor-tests.mjs --extension <abs dir> --tests <abs module>
//          --workspace <abs folder> [--screenshot <png>] [--timeout-ms N]
// The test module can log `AGENTSYNC_SCREENSHOT <abs png path>` to get a screenshot taken.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { REPO_ROOT, SERVER_MAIN, startEditorServer, workbenchUrl } from './server.mjs';

const { values: opt } = parseArgs({
  options: {
    extension: { type: 'string' }, tests: { type: 'string' }, workspace: { type: 'string' },
    screenshot: { type: 'string' }, 'timeout-ms': { type: 'string', default: String(8 * 60 * 1000) },
  },
});
for (const k of ['extension', 'tests', 'workspace']) {
  if (!opt[k] || !isAbsolute(opt[k])) { console.error(`run-editor-tests: --${k} <absolute path> is required`); process.exit(2); }
}
const timeoutMs = Number(opt['timeout-ms']);
const CHROMIUM = '/usr/bin/chromium';
const t0 = Date.now();
const say = (m) => console.log(`[editor +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

if (!existsSync(SERVER_MAIN) || !existsSync(CHROMIUM)) {
  say('installing VS Code server / Chromium (first run only)');
  const r = spawnSync('bash', [join(REPO_ROOT, 'scripts/editor/install-code-server.sh')], { stdio: 'inherit' });
  if (r.status !== 0) { console.error('run-editor-tests: install failed'); process.exit(r.status || 1); }
}

let server, browser, userDataDir, finishing = false;
async function finish(code, why) {
  if (finishing) return;
  finishing = true;
  if (why) say(why);
  // Browser first (it holds connections to the server), each step bounded so we never hang.
  await Promise.race([browser?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
  server?.stop();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  say(`exit ${code}`);
  process.exit(code);
}
// Hard timeout: whatever state the workbench is in, end with a failure.
setTimeout(() => finish(124, `TIMEOUT after ${timeoutMs} ms`), timeoutMs).unref();
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => finish(130, `got ${sig}`));

try {
  server = await startEditorServer();
  say(`server on port ${server.port}`);
  userDataDir = mkdtempSync(join(tmpdir(), 'agentsync-chromium-'));
  // launchPersistentContext: a fresh profile dir we own and delete, never the user's.
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());

  let exitCode;
  const done = new Promise((r) => { exitCode = r; });
  await page.exposeFunction('codeAutomationExit', (code) => { exitCode(Number(code) || 0); });

  // Screenshot requests are queued so they run in order and before the final exit.
  let shots = Promise.resolve();
  page.on('console', (msg) => {
    const text = msg.text();
    const m = /AGENTSYNC_SCREENSHOT\s+(\S+\.png)/.exec(text);
    if (m) {
      shots = shots.then(async () => {
        mkdirSync(dirname(m[1]), { recursive: true });
        await page.screenshot({ path: m[1] }).then(() => say(`screenshot ${m[1]}`), (e) => say(`screenshot failed: ${e.message}`));
      });
    }
    // Extension-host output arrives prefixed by the workbench; keep it, drop browser noise.
    if (msg.type() !== 'debug') console.log(text);
  });
  page.on('pageerror', (e) => say(`page error: ${e.message}`));

  const url = workbenchUrl({ port: server.port, folder: opt.workspace, extensionDevelopmentPath: opt.extension, extensionTestsPath: opt.tests });
  say(`opening ${url}`);
  await page.goto(url);
  const code = await done;
  say(`tests finished with code ${code}`);
  await shots;
  if (opt.screenshot) {
    mkdirSync(dirname(opt.screenshot), { recursive: true });
    await page.screenshot({ path: opt.screenshot }).then(() => say(`screenshot ${opt.screenshot}`), (e) => say(`screenshot failed: ${e.message}`));
  }
  await finish(code);
} catch (e) {
  await finish(1, `ERROR ${e?.stack ?? e}`);
}
