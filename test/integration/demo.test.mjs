// The demo as a first-time visitor sees it (scripts/editor/serve-demo.mjs, README's first command), in the first
// minute, read from the page a browser shows: no call into the extension. Runs outside the editor (node + mocha):
// `node test/integration/run.mjs --only demo`. Needs `npm run build` and the editor of scripts/editor/install-code-server.sh.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../scripts/editor/browser.mjs';
import { startDemo } from '../../scripts/editor/demoProcess.mjs';
/* global document, getComputedStyle -- the functions given to page.evaluate run in the browser page */

/** Everything below must be true within the first minute after the page starts loading. */
const FIRST_MINUTE_MS = 60_000;
/** A handoff row's label: its id and the tree's word for its status (src/vscode/treeItems.ts). */
const HANDOFF_LABEL = /^HO-\d{8}-\d{3} (queued|in progress|blocked|for review|approved|merged|escalated)$/;

let demo, browser, profile, page, deadline;
/** Every side-bar title the page showed, sampled from the start until the suite ends. */
const titles = [];
let sampling = true;

async function sampleTitles() {
  while (sampling) {
    const t = await page.evaluate(() => document.querySelector('.part.sidebar .composite.title h2')?.textContent ?? '').catch(() => '');
    if (t && titles.at(-1) !== t) titles.push(t);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `probe` (run in the page, or a function of the page) until it returns something truthy; fails at the deadline. */
async function within(what, probe) {
  let last;
  do {
    last = await probe().catch((e) => ({ error: e.message }));
    if (last && !last.error) return last;
    await new Promise((r) => setTimeout(r, 250));
  } while (Date.now() < deadline); // at least one look, even past the deadline
  assert.fail(`not within the first minute: ${what} (last seen: ${JSON.stringify(last)})`);
}

/** The Handoffs tree's rows as the page shows them. */
function treeRows() {
  return page.evaluate(() => {
    const pane = [...document.querySelectorAll('.part.sidebar .pane')].find((p) =>
      /Handoffs/.test(p.querySelector('.pane-header')?.textContent ?? ''),
    );
    if (!pane) return [];
    const body = pane.querySelector('.pane-body').getBoundingClientRect();
    return [...pane.querySelectorAll('.monaco-list-row')].map((r) => {
      const name = r.querySelector('.label-name');
      const box = r.getBoundingClientRect();
      return {
        label: name?.textContent ?? '',
        description: r.querySelector('.label-description')?.textContent ?? '',
        level: Number(r.getAttribute('aria-level')),
        expanded: r.getAttribute('aria-expanded'),
        // The label is whole when its text ends before its container's clipped edge.
        labelWhole: name
          ? name.getBoundingClientRect().right <= r.querySelector('.monaco-icon-label-container').getBoundingClientRect().right
          : false,
        onScreen: box.top >= body.top && box.bottom <= body.bottom,
      };
    });
  });
}

/** The Dashboard webview's text (its page is a frame in a frame), or ''. */
async function dashboardText() {
  for (const frame of page.frames()) {
    const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    if (/^Acting as /m.test(text)) return text;
  }
  return '';
}

describe('the demo in its first minute (scripts/demo.sh)', function () {
  this.timeout(3 * 60_000);

  before(async () => {
    demo = await startDemo({ minutes: 5 });
    profile = mkdtempSync(join(tmpdir(), 'agentsync-demo-test-chromium-'));
    browser = await launchChromium(profile);
    page = browser.pages()[0] ?? (await browser.newPage());
    deadline = Date.now() + FIRST_MINUTE_MS;
    await page.goto(demo.url);
    void sampleTitles();
  });

  after(async () => {
    sampling = false;
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    demo?.stop();
  });

  it('opens on the AgentSync view: the side bar never shows the Explorer', async () => {
    await within('the AgentSync view in the side bar', async () => titles.includes('AgentSync'));
    assert.deepEqual(
      titles.filter((t) => t !== 'AgentSync'),
      [],
      `side-bar views seen: ${titles.join(' → ')}`,
    );
  });

  it('shows each handoff row with its id and status whole at the default side-bar width', async () => {
    const rows = await within('handoff rows in the tree', async () => {
      const r = (await treeRows()).filter((x) => x.label.startsWith('HO-'));
      return r.length >= 6 ? r : undefined;
    });
    for (const r of rows) {
      assert.match(r.label, HANDOFF_LABEL);
      assert.ok(r.labelWhole, `the label "${r.label}" is cut`);
    }
  });

  it('the stale badge counts the stale handoff waiting for you', async () => {
    const badge = await within('the stale badge in the status bar', () =>
      page.evaluate(() => {
        const item = [...document.querySelectorAll('.statusbar-item')].find((e) => e.id.endsWith('agentsync.staleBadge'));
        return item && item.offsetParent ? { text: item.innerText.trim(), label: item.getAttribute('aria-label') } : undefined;
      }),
    );
    assert.equal(badge.text, '1');
    assert.match(badge.label, /1 stale open handoff assigned to human/);
    const rows = await treeRows();
    assert.ok(
      rows.some((r) => /^stale · Agree the session-expiry error message/.test(r.description)),
      rows.map((r) => r.description).join(' | '),
    );
  });

  it('the open file Claude is working on carries the ⇄ badge', async () => {
    await within('the ⇄ badge on the session.ts tab', () =>
      page.evaluate(() => {
        const tab = [...document.querySelectorAll('.tab')].find((t) => t.getAttribute('aria-label')?.startsWith('session.ts'));
        if (!tab) return false;
        return [...tab.querySelectorAll('*')].some((e) => getComputedStyle(e, '::after').content.includes('⇄'));
      }),
    );
  });

  it('shows the chain: the work Claude passed to Copilot, on screen under its parent', async () => {
    const store = JSON.parse(readFileSync(join(demo.workspace, '.agentsync/handoffs.json'), 'utf8'));
    const child = store.handoffs.find((h) => h.summary === 'Check the refresh path for a race');
    const parent = store.handoffs.find((h) => h.uid === child.parent_uid);
    assert.ok(child && parent, 'the demo scene has a chain');
    const rows = await within(`${child.handoff_id} on screen under ${parent.handoff_id}`, async () => {
      const r = await treeRows();
      const i = r.findIndex((x) => x.label.startsWith(`${child.handoff_id} `));
      return i > 0 && r[i].onScreen ? { rows: r, i } : undefined;
    });
    const row = rows.rows[rows.i];
    const above = rows.rows.slice(0, rows.i).findLast((x) => x.level === row.level - 1);
    assert.ok(above.label.startsWith(`${parent.handoff_id} `), `${row.label} is under ${above.label}`);
    assert.equal(above.expanded, 'true');
  });

  it('the Dashboard shows the groups as cards with their buttons', async () => {
    const text = await within('the Dashboard', async () => {
      const t = await dashboardText();
      return /HO-20261123-002/.test(t) ? t : undefined;
    });
    for (const want of [/ASSIGNED TO ME/, /AWAITING MY REVIEW/, /BLOCKED\/STALE/, /HO-20261123-006/, /\bClaim\b/, /\bApprove\b/]) {
      assert.match(text, want);
    }
  });

  it('a request an agent drops into .agentsync/requests/ arrives in the tree and on the Dashboard', async () => {
    const summary = 'Review the session-expiry test Codex just wrote';
    await within('the dropped request in the tree', async () =>
      (await treeRows()).some((r) => HANDOFF_LABEL.test(r.label) && r.description === summary),
    );
    await within('the dropped request on the Dashboard', async () => (await dashboardText()).includes(summary));
    assert.equal(existsSync(join(demo.workspace, '.agentsync/requests/codex-review-request.json')), false, 'the request was taken');
    assert.deepEqual(
      titles.filter((t) => t !== 'AgentSync'),
      [],
      `the side bar stayed on AgentSync: ${titles.join(' → ')}`,
    );
  });
});
