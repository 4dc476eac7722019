#!/usr/bin/env node
// Runs an extension's integration tests inside a real VS Code (web workbench + remote
// extension host from code-server) driven by Debian's Chromium, and exits with their code.
// Usage: node scripts/editor/run-editor-tests.mjs --extension <abs dir> --tests <abs module>
//          --workspace <abs folder> [--screenshot <png>] [--timeout-ms N] [--verbose]
// The test module can log `AGENTSYNC_SCREENSHOT <abs png path>` to get a screenshot taken
// of the workbench; the file appears (complete) at that path once taken, so poll for it.
// It can log `AGENTSYNC_WEBVIEW {"op":"read"|"click","selector":…,"out":<abs json path>}` to read or click
// (a real mouse click) in a webview's page; the answer appears as JSON at `out` the same way.
// It can log `AGENTSYNC_CLICK <base64 of {"message","button","result"}>` to have a notification's button
// clicked like a user would (the extension host cannot press one); the outcome is written to `result` as JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM, launchChromium } from './browser.mjs';
import { NODE24, REPO_ROOT, SERVER_MAIN, startEditorServer, workbenchUrl } from './server.mjs';

const { values: opt } = parseArgs({
  options: {
    extension: { type: 'string' },
    tests: { type: 'string' },
    workspace: { type: 'string' },
    screenshot: { type: 'string' },
    /** A VSIX to install (--install-extension) into the server's extensions folder before the window opens. */
    install: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    'timeout-ms': { type: 'string', default: String(8 * 60 * 1000) },
  },
});
for (const k of ['extension', 'tests', 'workspace']) {
  if (!opt[k] || !isAbsolute(opt[k])) {
    console.error(`run-editor-tests: --${k} <absolute path> is required`);
    process.exit(2);
  }
}
const timeoutMs = Number(opt['timeout-ms']);
const t0 = Date.now();
const say = (m) => console.log(`[editor +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

if (!existsSync(SERVER_MAIN) || !existsSync(CHROMIUM)) {
  say('installing VS Code server / Chromium (first run only)');
  const r = spawnSync('bash', [join(REPO_ROOT, 'scripts/editor/install-code-server.sh')], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('run-editor-tests: install failed');
    process.exit(r.status || 1);
  }
}

// Workbench chatter that is expected offline (see shared/REAL_EDITOR.md); --verbose shows it.
const NOISE = new RegExp(
  [
    '^(Failed to load resource|Manifest fetch|A bad HTTP response code|An iframe which has both|The web worker extension host)',
    '\\[(AgentHost[^\\]]*|ChatModelSelection|AccountPolicyGate|Service Worker|reconnection-grace-time)\\]',
    'open-vsx\\.org|ENOTFOUND|Creating a socket|connection token|Updating additional builtin|authentication provider',
    '^\\s*ERR Canceled: Canceled',
  ].join('|'),
);

/** Browser console args → one line: applies printf-style formats (%c drops a CSS arg),
 *  repeatedly, since the workbench wraps the extension host's own `console.log(fmt, ...)`. */
function formatConsole(values) {
  const out = [];
  let rest = values;
  while (rest.length) {
    let [first, ...args] = rest;
    if (typeof first === 'string' && first.includes('%')) {
      first = first.replace(/%[sdifoOc%]/g, (t) => {
        if (t === '%%') return '%';
        if (!args.length) return t;
        const v = args.shift();
        return t === '%c'
          ? ''
          : typeof v === 'string'
            ? v
            : t === '%s' || t === '%d' || t === '%i' || t === '%f'
              ? String(v)
              : JSON.stringify(v);
      });
    } else if (typeof first !== 'string') first = JSON.stringify(first);
    out.push(first);
    rest = args;
  }
  return out.join(' ').replace(/^\s*INFO /, '');
}

/** Screenshot written under a temp name and renamed, so a test polling for the file
 *  sees it only once it is complete. */
async function screenshot(page, path) {
  try {
    mkdirSync(dirname(path), { recursive: true });
    await page.screenshot({ path: `${path}.part.png` });
    renameSync(`${path}.part.png`, path);
    say(`screenshot ${path}`);
  } catch (e) {
    say(`screenshot ${path} failed: ${e.message}`);
  }
}

/** The frame (a webview's page is an iframe in an iframe) that has `selector`, or null. */
async function frameWith(page, selector) {
  for (const frame of page.frames()) {
    if (await frame.$(selector).catch(() => null)) return frame;
  }
  return null;
}

/** A webview request from the tests: read an element's text and buttons, or click an element. Always answers. */
async function webviewRequest(page, json) {
  let req;
  try {
    req = JSON.parse(json);
  } catch (e) {
    return say(`webview request is not JSON: ${e.message}`);
  }
  let answer;
  try {
    const frame = await frameWith(page, req.selector);
    if (!frame) answer = { error: `no webview frame has ${req.selector}` };
    else if (req.op === 'click') {
      await frame.click(req.selector, { timeout: 5000 });
      answer = { clicked: true };
    } else {
      answer = await frame.$eval(req.selector, (root) => ({
        text: root.innerText,
        buttons: [...root.querySelectorAll('button')].map((b) => ({
          tag: b.tagName,
          text: b.textContent,
          ariaLabel: b.getAttribute('aria-label'),
          disabled: b.disabled,
        })),
      }));
    }
  } catch (e) {
    answer = { error: e.message };
  }
  writeFileSync(`${req.out}.part`, JSON.stringify(answer));
  renameSync(`${req.out}.part`, req.out);
}

/** Clicks `button` on the visible notification (toast or notification center) whose text contains `message`. */
async function clickNotificationButton(page, { message, button, result }) {
  let outcome;
  try {
    const item = page.locator('.notification-list-item:visible', { hasText: message }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    const exact = new RegExp(`^\\s*${button.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    await item.locator('.monaco-button', { hasText: exact }).first().click({ timeout: 5_000 });
    outcome = { ok: true };
    say(`clicked "${button}" on the notification "${message}"`);
  } catch (e) {
    outcome = { ok: false, error: e.message.split('\n')[0] };
    await screenshot(page, `${result}.png`); // what the workbench showed instead
    say(`could not click "${button}" on "${message}": ${outcome.error}`);
  }
  writeFileSync(`${result}.part`, JSON.stringify(outcome));
  renameSync(`${result}.part`, result);
}

let server,
  browser,
  userDataDir,
  finishing = false;
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
// Not unref'd: if the browser dies, this timer is what ends the run (non-zero).
setTimeout(() => finish(124, `TIMEOUT after ${timeoutMs} ms`), timeoutMs);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => finish(130, `got ${sig}`));

try {
  let serverDir;
  if (opt.install) {
    serverDir = mkdtempSync(join(tmpdir(), 'agentsync-editor-'));
    const ext = join(serverDir, 'ext');
    const r = spawnSync(
      NODE24,
      [
        SERVER_MAIN,
        '--install-extension',
        opt.install,
        '--extensions-dir',
        ext,
        '--user-data-dir',
        join(serverDir, 'ud'),
        '--server-data-dir',
        join(serverDir, 'sd'),
        '--accept-server-license-terms',
      ],
      { encoding: 'utf8' },
    );
    say(`--install-extension ${opt.install}: exit ${r.status} ${(r.stdout + r.stderr).trim().split('\n').slice(-2).join(' | ')}`);
    if (r.status !== 0) await finish(1, 'the VSIX did not install');
    // Read by the tests in the extension host (the server passes its environment on).
    process.env.AGENTSYNC_IT_EXTENSIONS_DIR = ext;
  }
  server = await startEditorServer(serverDir ? { tmpDir: serverDir } : {});
  if (serverDir) process.on('exit', () => rmSync(serverDir, { recursive: true, force: true }));
  say(`server on port ${server.port}`);
  userDataDir = mkdtempSync(join(tmpdir(), 'agentsync-chromium-'));
  // launchPersistentContext: a fresh profile dir we own and delete, never the user's.
  browser = await launchChromium(userDataDir);
  browser.on('close', () => finish(1, 'browser closed before the tests finished'));
  // The zero-touch End Session copies its pick-up prompt; the suite reads it back through vscode.env.clipboard.
  await browser.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = browser.pages()[0] ?? (await browser.newPage());

  let exitCode;
  const done = new Promise((r) => {
    exitCode = r;
  });
  await page.exposeFunction('codeAutomationExit', (code) => {
    exitCode(Number.isInteger(Number(code)) ? Number(code) : 1);
  });

  // Console messages are handled in one queue so output order and screenshot requests
  // stay in sequence, and all of it completes before the final exit.
  let queue = Promise.resolve();
  page.on('console', (msg) => {
    queue = queue.then(async () => {
      const values = await Promise.all(
        msg.args().map((a) => a.evaluate((v) => (v instanceof Error ? v.stack || String(v) : v)).catch(() => String(a))),
      );
      const text = values.length ? formatConsole(values) : msg.text();
      const m = /AGENTSYNC_SCREENSHOT\s+(\S+\.png)/.exec(text);
      const click = /AGENTSYNC_CLICK\s+([A-Za-z0-9+/=]+)/.exec(text);
      const w = /AGENTSYNC_WEBVIEW\s+(\{.*\})\s*$/.exec(text);
      if (m) await screenshot(page, m[1]);
      else if (click) await clickNotificationButton(page, JSON.parse(Buffer.from(click[1], 'base64').toString('utf8')));
      else if (w) await webviewRequest(page, w[1]);
      else if (opt.verbose || !NOISE.test(text)) console.log(text);
    });
  });
  page.on('pageerror', (e) => say(`page error: ${e.message}`));

  const url = workbenchUrl({
    port: server.port,
    folder: opt.workspace,
    extensionDevelopmentPath: opt.extension,
    extensionTestsPath: opt.tests,
  });
  say(`opening ${url}`);
  await page.goto(url);
  const code = await done;
  await new Promise((r) => setTimeout(r, 300)); // let the last console events arrive
  await queue;
  say(`tests finished with code ${code}`);
  if (opt.screenshot) await screenshot(page, opt.screenshot);
  await finish(code);
} catch (e) {
  await finish(1, `ERROR ${e?.stack ?? e}`);
}
