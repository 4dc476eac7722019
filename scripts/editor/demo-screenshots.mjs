#!/usr/bin/env node
// Headless screenshots of the demo as a first-time visitor sees it: starts scripts/editor/serve-demo.mjs, opens its
// address in Debian's Chromium (playwright-core) and saves test-output/demo-<s>s.png at each --at second (default 20
// and 60) after the page starts loading. Needs `npm run build` and the editor of scripts/editor/install-code-server.sh.
// Usage: node scripts/editor/demo-screenshots.mjs [--at 20,60] [--out test-output]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { REPO_ROOT } from './server.mjs';

const { values: opt } = parseArgs({
  options: { at: { type: 'string', default: '20,60' }, out: { type: 'string', default: 'test-output' } },
});
const marks = opt.at.split(',').map(Number);
const outDir = resolve(REPO_ROOT, opt.out);
mkdirSync(outDir, { recursive: true });

const demo = spawn(
  process.execPath,
  [join(REPO_ROOT, 'scripts/editor/serve-demo.mjs'), '--minutes', String(Math.ceil(Math.max(...marks) / 60) + 2)],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const url = await new Promise((res, rej) => {
  let text = '';
  demo.stdout.on('data', (d) => {
    process.stdout.write(d);
    text += d;
    const m = /(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(text);
    if (m) res(m[1]);
  });
  demo.on('exit', (code) => rej(new Error(`serve-demo exited ${code} before printing its address`)));
});

const profile = mkdtempSync(join(tmpdir(), 'agentsync-demo-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  const start = Date.now();
  await page.goto(url);
  for (const s of marks) {
    await page.waitForTimeout(Math.max(0, start + s * 1000 - Date.now()));
    const file = join(outDir, `demo-${s}s.png`);
    await page.screenshot({ path: file });
    console.log(`[demo-screenshots] ${s} s: ${file}`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  demo.kill('SIGTERM');
}
