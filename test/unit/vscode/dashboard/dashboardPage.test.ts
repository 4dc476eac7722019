// The dashboard page's shell and what the extension accepts from it (src/vscode/dashboard/): a strict CSP with a
// nonce, nothing remote, and page messages checked before anything runs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contentSecurityPolicy, dashboardPage, newNonce } from '../../../../src/vscode/dashboard/dashboardHtml';
import { parsePageMessage } from '../../../../src/vscode/dashboard/dashboardMessages';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/dashboard.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/dashboard.css',
  nonce: 'abc123+/=',
};

describe('dashboard page', () => {
  it('has a Content-Security-Policy that allows only the nonce script and local styles', () => {
    const html = dashboardPage(parts);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    assert.equal(
      csp,
      "default-src 'none'; style-src https://file+.vscode-resource.vscode-cdn.net 'nonce-abc123+/='; script-src 'nonce-abc123+/=';",
    );
    assert.equal(csp, contentSecurityPolicy(parts.cspSource, parts.nonce));
  });

  it('every script carries the nonce, has no inline code, and nothing loads from elsewhere', () => {
    const html = dashboardPage(parts);
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0][1], /nonce="abc123\+\/="/);
    assert.equal(scripts[0][2], '');
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) assert.ok(url.startsWith(parts.cspSource), url);
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'an inline event handler');
  });

  it('a fresh nonce per page', () => {
    const a = newNonce();
    assert.ok(a.length >= 24);
    assert.notEqual(a, newNonce());
  });

  it('the page script sets text, never HTML, and uses only theme colours', () => {
    const media = path.resolve(__dirname, '../../../../../media');
    const js = fs.readFileSync(path.join(media, 'dashboard.js'), 'utf8');
    assert.doesNotMatch(js, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    const css = fs.readFileSync(path.join(media, 'dashboard.css'), 'utf8');
    assert.doesNotMatch(css, /#[0-9a-f]{3,8}\b|rgb|hsl|url\(/i, 'a fixed colour or a remote resource in the style sheet');
  });
});

describe('dashboard page messages', () => {
  it('accepts a button press naming a known action, a folder and a handoff', () => {
    assert.deepEqual(parsePageMessage({ type: 'act', action: 'claim', folder: '/ws', handoffId: 'HO-20260222-001' }), {
      type: 'act',
      action: 'claim',
      folder: '/ws',
      handoffId: 'HO-20260222-001',
    });
    assert.deepEqual(parsePageMessage({ type: 'rendered', seq: 3 }), { type: 'rendered', seq: 3 });
    assert.deepEqual(parsePageMessage({ type: 'ready' }), { type: 'ready' });
  });

  it('refuses anything else: unknown actions, raw requests, missing or oversized fields', () => {
    for (const bad of [
      null,
      'claim',
      { type: 'act', action: 'merge', folder: '/ws', handoffId: 'HO-1' },
      { type: 'act', action: 'claim', folder: '/ws' },
      { type: 'act', action: 'claim', folder: '', handoffId: 'HO-1' },
      { type: 'act', action: 'claim', folder: '/ws', handoffId: 'x'.repeat(65) },
      { type: 'request', request: { action: 'transitionHandoff', to: 'merged' } },
      { type: 'rendered', seq: 'a' },
    ])
      assert.equal(parsePageMessage(bad), null, JSON.stringify(bad));
  });
});
