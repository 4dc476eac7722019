// The demo as a first-time visitor sees it (scripts/editor/serve-demo.mjs, README's first command), in the first
// minute, read from the page a browser shows: no call into the extension. Runs outside the editor (node + mocha):
// `node test/integration/run.mjs --only demo`. Needs `npm run build` and the editor of scripts/editor/install-code-server.sh.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../scripts/editor/browser.mjs';
import { startDemo } from '../../scripts/editor/demoProcess.mjs';
/* global document, getComputedStyle, window, MutationObserver -- the functions given to page.evaluate run in the browser page */

/** Everything below must be true within the first minute after the page starts loading. */
const FIRST_MINUTE_MS = 60_000;
/** A handoff row's label: its id and the tree's word for its status (src/vscode/treeItems.ts). */
const HANDOFF_LABEL = /^HO-\d{8}-\d{3} (queued|in progress|blocked|for review|approved|merged|escalated)$/;

let demo, browser, profile, page, deadline, loadStarted;
/** Every text the side bar showed, as recorded in the page by a MutationObserver installed before the page loads. */
const sideBarTexts = [];
/** What the window must never tell an initialized folder, at any moment. */
const NOT_INITIALIZED = /not an AgentSync workspace/i;
/** How long the side bar's texts are watched for it from the start. */
const WATCH_MS = 20_000;
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
    // From the first document on (and again on each navigation): every text added to the side bar, or changed in it,
    // goes to the test with the time it appeared.
    await page.exposeBinding('__agentsyncSideBarText', (_source, text) => sideBarTexts.push({ ms: Date.now() - loadStarted, text }));
    await page.addInitScript(() => {
      const seen = new Set();
      // A node counts when it is in the side bar, or holds it (a part attached whole).
      const report = (node) => {
        const el = node.nodeType === 1 ? node : node.parentElement;
        if (!el?.isConnected) return;
        const bar = el.closest('.part.sidebar') ? node : el.querySelector?.('.part.sidebar');
        const text = (bar?.textContent ?? '').trim();
        if (!text || seen.has(text)) return;
        seen.add(text);
        void window.__agentsyncSideBarText(text);
      };
      new MutationObserver((mutations) => {
        for (const m of mutations) {
          if (m.type === 'childList') for (const n of m.addedNodes) report(n);
          else report(m.target);
        }
      }).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['class', 'style', 'aria-hidden'],
      });
    });
    loadStarted = Date.now();
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
    const store = JSON.parse(readFileSync(join(demo.workspace, '.agentsync/handoffs.json'), 'utf8'));
    const idOf = (summary) => store.handoffs.find((h) => h.summary === summary).handoff_id;
    const retry = idOf('Decide the retry budget for token refresh');
    const review = idOf('Make session expiry configurable (default 30 min)');
    const text = await within('the Dashboard', async () => {
      const t = await dashboardText();
      return t.includes(retry) ? t : undefined;
    });
    for (const want of [/ASSIGNED TO ME/, /AWAITING MY REVIEW/, /BLOCKED\/STALE/, /\bClaim\b/, /\bApprove\b/]) {
      assert.match(text, want);
    }
    assert.ok(text.includes(review), `${review} (for review) on the Dashboard`);
  });

  it("each handoff's id carries the day it was created (the demo's history is today's)", () => {
    const store = JSON.parse(readFileSync(join(demo.workspace, '.agentsync/handoffs.json'), 'utf8'));
    for (const h of store.handoffs) {
      assert.equal(h.handoff_id.slice(3, 11), h.created_at.slice(0, 10).replace(/-/g, ''), `${h.handoff_id} created ${h.created_at}`);
    }
    assert.ok(
      store.handoffs.some((h) => h.created_at.slice(0, 10) === new Date().toISOString().slice(0, 10)),
      'made today',
    );
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

  it(`never shows "not an AgentSync workspace" in the first ${WATCH_MS / 1000} s, and shows what AgentSync is instead`, async () => {
    const left = WATCH_MS - (Date.now() - loadStarted);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    const bad = sideBarTexts.filter((t) => NOT_INITIALIZED.test(t.text));
    assert.deepEqual(
      bad.map((t) => `${t.ms} ms: ${t.text.slice(0, 120)}`),
      [],
      'the side bar told an initialized folder it is not a workspace',
    );
    // The observer saw the view itself: its rows and its first line (when they came depends on the machine's load).
    assert.ok(
      sideBarTexts.some((t) => /HO-\d{8}-\d{3}/.test(t.text)),
      `the observer saw no handoff row: ${sideBarTexts.map((t) => t.text.slice(0, 60)).join(' | ')}`,
    );
    assert.ok(
      sideBarTexts.some((t) => /AgentSync: handoffs between agents and you\. Try: right-click one → Claim\./.test(t.text)),
      'the line that says what AgentSync is',
    );
  });

  it('announces the dropped request in the editor: a notification naming the agent and the handoff, with Show', async () => {
    const summary = 'Review the session-expiry test Codex just wrote';
    await within('the dropped request in the store', async () =>
      readFileSync(join(demo.workspace, '.agentsync/handoffs.json'), 'utf8').includes(summary),
    );
    const store = JSON.parse(readFileSync(join(demo.workspace, '.agentsync/handoffs.json'), 'utf8'));
    const dropped = store.handoffs.find((h) => h.summary === summary);
    const message = `AgentSync: Codex handed you ${dropped.handoff_id}: ${summary}`;
    // Toasts may have hidden by now: the notification center lists every notification of the window.
    await page.click('#status\\.notifications');
    const item = await within('the new-work notification in the notification center', () =>
      page.evaluate(
        (want) =>
          [...document.querySelectorAll('.notifications-center .monaco-list-row')]
            .map((r) => ({
              label: r.getAttribute('aria-label') ?? '',
              buttons: [...r.querySelectorAll('.monaco-button')].map((b) => b.textContent.trim()),
            }))
            .find((r) => r.label.includes(want)),
        message,
      ),
    );
    assert.match(
      item.label,
      /^Info: AgentSync: Codex handed you HO-\d{8}-\d{3}: Review the session-expiry test Codex just wrote, source: AgentSync/,
    );
    assert.deepEqual(item.buttons, ['Show']);
    await page.keyboard.press('Escape');
  });
});
