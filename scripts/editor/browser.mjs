// The one Chromium setup of the editor scripts (run-editor-tests.mjs, demo-screenshots.mjs, the demo check): Debian's
// Chromium driven by playwright-core, headless, offline-quiet, in a fresh profile the caller owns. See shared/REAL_EDITOR.md.
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** A persistent context on `profileDir` (a fresh temporary folder; the caller deletes it) at 1400×900. */
export function launchChromium(profileDir) {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
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
}
