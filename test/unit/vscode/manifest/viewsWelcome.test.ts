// The Handoffs view's welcome in package.json (contributes.viewsWelcome), read with the context keys the extension
// sets (src/vscode/manifest/contextKeys.ts): "not an AgentSync workspace yet … Initialize" shows only once the extension
// has read the folder and found it uninitialized, never in the seconds before its first read.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INITIALIZED_CONTEXT_KEY, STORE_READ_CONTEXT_KEY } from '../../../../src/vscode/manifest/contextKeys';

const root = path.resolve(__dirname, '../../../../..');
interface Welcome {
  view: string;
  contents: string;
  when?: string;
}
const welcomes = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { viewsWelcome: Welcome[] } }
).contributes.viewsWelcome.filter((w) => w.view === 'agentsync.handoffs');

/** VS Code's `when` for the forms the welcomes use: `a && !b && c != v && c == v` (keys unset are undefined). */
function holds(when: string, ctx: Record<string, unknown>): boolean {
  return when.split('&&').every((clause) => {
    const c = clause.trim();
    const cmp = /^([\w.]+)\s*(==|!=)\s*(\S+)$/.exec(c);
    if (cmp) return (String(ctx[cmp[1]]) === cmp[3]) === (cmp[2] === '==');
    assert.match(c, /^!?[\w.]+$/, `a clause this test does not read: ${c}`);
    return c.startsWith('!') ? !ctx[c.slice(1)] : Boolean(ctx[c]);
  });
}

const shown = (ctx: Record<string, unknown>) => welcomes.filter((w) => holds(w.when ?? 'true', ctx)).map((w) => w.contents);
const notInitialized = /not an AgentSync workspace/;

describe('the Handoffs view welcome (package.json viewsWelcome)', () => {
  it('says "not an AgentSync workspace" for an uninitialized folder once the extension has read it', () => {
    const text = shown({ workbenchState: 'folder', [STORE_READ_CONTEXT_KEY]: true, [INITIALIZED_CONTEXT_KEY]: false });
    assert.equal(text.length, 1);
    assert.match(text[0], notInitialized);
    assert.match(text[0], /command:agentsync\.init/);
  });

  it('shows nothing before the first read (no context key set yet), so an initialized folder never sees it', () => {
    assert.deepEqual(shown({ workbenchState: 'folder' }), []);
    assert.deepEqual(shown({ workbenchState: 'workspace' }), []);
    assert.deepEqual(shown({ workbenchState: 'folder', [STORE_READ_CONTEXT_KEY]: true, [INITIALIZED_CONTEXT_KEY]: true }), []);
  });

  it('offers Open Folder in an empty window', () => {
    const text = shown({ workbenchState: 'empty' });
    assert.equal(text.length, 1);
    assert.match(text[0], /command:workbench\.action\.files\.openFolder/);
  });

  it("names only context keys the extension sets, or VS Code's own", () => {
    const known = new Set(['workbenchState', INITIALIZED_CONTEXT_KEY, STORE_READ_CONTEXT_KEY]);
    for (const w of welcomes)
      for (const clause of (w.when ?? '').split('&&')) {
        const key = clause
          .trim()
          .replace(/^!/, '')
          .split(/\s*(?:==|!=)\s*/)[0];
        assert.ok(known.has(key), `${w.when}: ${key} is set by nobody`);
      }
  });
});
