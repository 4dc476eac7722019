// Where the state is read from is decided in one place, the store (docs/architecture.md, "src/core/store"): no file
// outside src/core/store/ reads .agentsync/handoffs.json by its path (the layout's `handoffsFile`) or by its name in
// a string, so sync mode, the size limit and the symlink refusal cannot be skipped by a reader of its own. The
// layout (src/core/workspace/workspaceLayout.ts) is the one place the path is defined. Reads the sources as text.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/architecture/: the repository is three levels up.
const SRC = path.resolve(__dirname, '../../../src');

/**
 * The files allowed to name the store file: the store itself, the layout that defines where every file lives, and the
 * text package.json shows people (src/vscode/manifest/*Contributions.ts: markdown that names the file, read by no code).
 */
function allowed(srcRelative: string): boolean {
  return (
    srcRelative.startsWith('core/store/') ||
    srcRelative === 'core/workspace/workspaceLayout.ts' ||
    /^vscode\/manifest\/\w+Contributions\.ts$/.test(srcRelative)
  );
}

/**
 * A way of reaching the store file without the store: the layout's path to it, or a string that is the file's name
 * or a path ending in it (`'handoffs.json'`, `'.agentsync/handoffs.json'`). Prose that mentions the file (a message,
 * a command's help) is no read.
 */
const STORE_BY_PATH: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /\bhandoffsFile\b/g, what: "the layout's path to the store" },
  { pattern: /(['"`])[\w./-]*handoffs\.json\1/g, what: "the store file's name as a path" },
];

/** The text without comments (a comment may name the file; it reads nothing). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** `file:line: "match" (what)` for every way of reaching the store file in the given src/-relative files. */
function storeReads(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (allowed(file)) continue;
    code(text)
      .split('\n')
      .forEach((line, i) => {
        for (const { pattern, what } of STORE_BY_PATH) {
          for (const m of line.matchAll(pattern)) found.push(`${file}:${i + 1}: ${m[0]} (${what})`);
        }
      });
  }
  return found;
}

function sources(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) out.set(path.relative(SRC, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
    }
  };
  walk(SRC);
  return out;
}

describe('the store is read through the store', () => {
  it('no file outside src/core/store/ reads handoffs.json by path or by name', () => {
    const found = storeReads(sources());
    const files = [...new Set(found.map((f) => f.slice(0, f.indexOf(':'))))];
    assert.deepEqual(
      found,
      [],
      `${files.length} file(s) read the store file without the store (read it through src/core/store/storeReader.ts):\n` +
        `${files.join('\n')}\n\n${found.join('\n')}`,
    );
  });

  it('the scan finds each way of naming the file, and not prose or comments', () => {
    const files = new Map([
      ['core/hooks/a.ts', "const f = path.join(root, '.agentsync', 'handoffs.json');"],
      ['cli/b.ts', 'fs.readFileSync(ctx.layout.handoffsFile);'],
      ['cli/c.ts', "if (p === '.agentsync/handoffs.json' || p.endsWith(`/.agentsync/handoffs.json`)) return;"],
      ['vscode/d.ts', "const m = 'It is written to .agentsync/handoffs.json and AgentTracker.md.';"],
      ['vscode/e.ts', '// reads .agentsync/handoffs.json\n/* layout.handoffsFile */ const schema = handoffsFileSchema;'],
      ['core/store/f.ts', 'fs.readFileSync(this.layout.handoffsFile);'],
      ['core/workspace/workspaceLayout.ts', "this.handoffsFile = path.join(this.dataDir, 'handoffs.json');"],
    ]);
    assert.deepEqual(storeReads(files), [
      "core/hooks/a.ts:1: 'handoffs.json' (the store file's name as a path)",
      "cli/b.ts:1: handoffsFile (the layout's path to the store)",
      "cli/c.ts:1: '.agentsync/handoffs.json' (the store file's name as a path)",
      "cli/c.ts:1: `/.agentsync/handoffs.json` (the store file's name as a path)",
    ]);
  });
});
