#!/usr/bin/env node
// Headless screenshots of the demo as a first-time visitor sees it: starts scripts/editor/serve-demo.mjs, opens its
// address in Debian's Chromium (playwright-core) and saves test-output/demo-<s>s.png at each --at second (default 20
// and 60) after the page starts loading. Needs `npm run build` and the editor of scripts/editor/install-code-server.sh.
// Usage: node scripts/editor/demo-screenshots.mjs [--at 20,60] [--out test-output]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './browser.mjs';
import { startDemo } from './demoProcess.mjs';
import { REPO_ROOT } from './server.mjs';

const { values: opt } = parseArgs({
  options: { at: { type: 'string', default: '20,60' }, out: { type: 'string', default: 'test-output' } },
});
const marks = opt.at.split(',').map(Number);
const outDir = resolve(REPO_ROOT, opt.out);
mkdirSync(outDir, { recursive: true });

const demo = await startDemo({ minutes: Math.ceil(Math.max(...marks) / 60) + 2, echo: true });
const profile = mkdtempSync(join(tmpdir(), 'agentsync-demo-chromium-'));
const browser = await launchChromium(profile);
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  const start = Date.now();
  await page.goto(demo.url);
  for (const s of marks) {
    await page.waitForTimeout(Math.max(0, start + s * 1000 - Date.now()));
    const file = join(outDir, `demo-${s}s.png`);
    await page.screenshot({ path: file });
    console.log(`[demo-screenshots] ${s} s: ${file}`);
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  demo.stop();
}
