// Imports run one way between the folders of src/ (docs/architecture.md): this test is where that rule is enforced.
// It reads every .ts file under src/ as text, so a back-edge fails here before it can grow into a cycle.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The layers of src/core, lowest first; a layer may import any layer of a lower rank, never one of the same rank or above. */
const CORE_RANK: Readonly<Record<string, number>> = {
  domain: 0,
  disk: 1,
  git: 2,
  hooks: 2,
  workspace: 3,
  store: 4,
  requests: 5,
  dropZone: 6,
};

/** Node modules that do I/O: the domain layer is pure rules and shapes, so it may not import them. */
const IO_MODULES = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process']);

/** Where a src/-relative path sits: `core/<layer>`, `core` (a loose file), `vscode`, `cli`, `extension` or `other`. */
function areaOf(srcRelative: string): string {
  const parts = srcRelative.split('/');
  if (parts[0] === 'core') return parts.length > 2 ? `core/${parts[1]}` : 'core';
  if (parts[0] === 'vscode' || parts[0] === 'cli') return parts[0];
  if (srcRelative === 'extension.ts' || srcRelative === 'extension') return 'extension';
  return 'other';
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

/** Every module specifier a file names in import/export-from/require/import() forms. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[2]);
}

/** Why `fromFile` (src/-relative, posix) may not import `spec`, or null when it may. */
function whyForbidden(fromFile: string, spec: string): string | null {
  const from = areaOf(fromFile);
  const fromCore = from === 'core' || from.startsWith('core/');
  if (!spec.startsWith('.')) {
    if (spec === 'vscode' && from !== 'vscode' && from !== 'extension') return `only src/vscode and src/extension.ts may import vscode`;
    if (from === 'core/domain' && IO_MODULES.has(spec)) return 'core/domain is pure rules and shapes: no file or process I/O';
    return null;
  }
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  const to = areaOf(target);
  if (fromCore && (to === 'vscode' || to === 'cli' || to === 'extension')) return `core never imports ${to}`;
  if (from === 'vscode' && to === 'cli') return 'vscode never imports cli (both are adapters over core)';
  if (from === 'cli' && to === 'vscode') return 'cli never imports vscode (it runs without the editor)';
  if (from.startsWith('core/') && to.startsWith('core/') && to !== from) {
    const fromRank = CORE_RANK[from.slice(5)];
    const toRank = CORE_RANK[to.slice(5)];
    if (fromRank === undefined) return `${from} is not a layer listed in docs/architecture.md`;
    if (toRank === undefined) return `${to} is not a layer listed in docs/architecture.md`;
    if (toRank >= fromRank) return `${from} (rank ${fromRank}) may import only lower layers, not ${to} (rank ${toRank})`;
  }
  return null;
}

/** `file: import 'spec' (why)` for every forbidden import in the given src/-relative files, and every loose core file. */
function violations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (areaOf(file) === 'core') found.push(`src/${file}: src/core holds layer folders only; move this file into the layer it belongs to`);
    for (const spec of specifiersOf(text)) {
      const why = whyForbidden(file, spec);
      if (why) found.push(`src/${file}: import '${spec}' (${why})`);
    }
  }
  return found;
}

/** The src/-relative file a relative specifier names (`x.ts` or `x/index.ts`), or null when it names none. */
function resolveImport(files: ReadonlyMap<string, string>, fromFile: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  for (const candidate of [`${target}.ts`, `${target}/index.ts`, target])
    if (candidate.endsWith('.ts') && files.has(candidate)) return candidate;
  return null;
}

/**
 * Every import circle among the given files, each as `a.ts -> b.ts -> a.ts` starting from its first file by name.
 * `import type` counts: a type-only circle is erased at run time, but the two files still cannot be read, moved or
 * layered apart, and that is what this rule is for (each circle docs/architecture.md forbids was type-only).
 */
function importCircles(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = specifiersOf(text)
      .map((spec) => resolveImport(files, file, spec))
      .filter((t): t is string => t !== null);
    edges.set(file, [...new Set(targets)].sort());
  }
  // Tarjan's strongly connected components: every file of a component reaches every other.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) components.push(component);
  };
  for (const file of [...files.keys()].sort()) if (!index.has(file)) visit(file);
  // Name each component by one concrete circle through its first file, found breadth-first within the component.
  return components
    .map((component) => {
      const members = new Set(component);
      const start = [...component].sort()[0];
      const cameFrom = new Map<string, string>();
      const queue = [start];
      let closing: string | undefined;
      while (queue.length > 0 && closing === undefined) {
        const file = queue.shift()!;
        for (const next of edges.get(file) ?? []) {
          if (!members.has(next)) continue;
          if (next === start) {
            closing = file;
            break;
          }
          if (!cameFrom.has(next)) {
            cameFrom.set(next, file);
            queue.push(next);
          }
        }
      }
      const route = [start];
      for (let file = closing!; file !== start; file = cameFrom.get(file)!) route.splice(1, 0, file);
      const others = component.length - route.length;
      const circle = [...route, start].map((f) => `src/${f}`).join(' -> ');
      return others > 0 ? `${circle} (and ${others} more file(s) in the same circle)` : circle;
    })
    .sort();
}

function readSources(srcDir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.set(path.relative(srcDir, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
    }
  };
  walk(srcDir);
  return files;
}

// Compiled to out/test/architecture/: the sources are three levels up.
const SRC = path.resolve(__dirname, '../../../src');

describe('import direction (docs/architecture.md)', () => {
  it('every import under src/ runs the allowed way', () => {
    const files = readSources(SRC);
    assert.ok(files.size > 100, `expected the whole src/ tree, read ${files.size} files from ${SRC}`);
    assert.deepEqual(violations(files), []);
  });

  it('no import circle among the files of src/, type-only imports included', () => {
    assert.deepEqual(importCircles(readSources(SRC)), []);
  });

  it('names each import circle, through type-only imports and index files too', () => {
    const files = new Map([
      ['vscode/a.ts', "import type { B } from './b';"],
      ['vscode/b.ts', "import { c } from './c';"],
      ['vscode/c.ts', "export { a } from './a';"],
      ['vscode/d.ts', "import { a } from './a';"],
      ['core/store/x.ts', "import { y } from './y';"],
      ['core/store/y/index.ts', "const x = require('../x');"],
      ['cli/self.ts', "import { self } from './self';"],
      ['cli/lone.ts', "import { z } from 'zod';"],
    ]);
    assert.deepEqual(importCircles(files), [
      'src/cli/self.ts -> src/cli/self.ts',
      'src/core/store/x.ts -> src/core/store/y/index.ts -> src/core/store/x.ts',
      'src/vscode/a.ts -> src/vscode/b.ts -> src/vscode/c.ts -> src/vscode/a.ts',
    ]);
  });

  it('every src/core folder is a layer with a rank', () => {
    const folders = fs.readdirSync(path.join(SRC, 'core'), { withFileTypes: true }).filter((e) => e.isDirectory());
    assert.deepEqual(
      folders.map((e) => e.name).filter((name) => CORE_RANK[name] === undefined),
      [],
    );
  });

  it('names the file and the import that runs against the direction', () => {
    const bad = new Map([
      ['core/domain/lifecycle.ts', "import { HandoffStore } from '../store/handoffStore';\nimport * as fs from 'node:fs';"],
      ['core/store/auditLog.ts', "import { x } from '../requests/requestDispatcher';\nimport type * as vscode from 'vscode';"],
      ['core/requests/requestParams.ts', "import { y } from '../store/storeTransaction';"],
      ['vscode/treeItems.ts', "export { z } from '../cli/terminalText';"],
      ['cli/main.ts', "const m = require('../vscode/prompts');"],
      ['core/loose.ts', "import { e } from './domain/errors';"],
      ['core/hooks/stopGate.ts', "const g = import('../git/gitCommand');"],
    ]);
    assert.deepEqual(violations(bad), [
      "src/core/domain/lifecycle.ts: import '../store/handoffStore' (core/domain (rank 0) may import only lower layers, not core/store (rank 4))",
      "src/core/domain/lifecycle.ts: import 'node:fs' (core/domain is pure rules and shapes: no file or process I/O)",
      "src/core/store/auditLog.ts: import '../requests/requestDispatcher' (core/store (rank 4) may import only lower layers, not core/requests (rank 5))",
      "src/core/store/auditLog.ts: import 'vscode' (only src/vscode and src/extension.ts may import vscode)",
      "src/vscode/treeItems.ts: import '../cli/terminalText' (vscode never imports cli (both are adapters over core))",
      "src/cli/main.ts: import '../vscode/prompts' (cli never imports vscode (it runs without the editor))",
      'src/core/loose.ts: src/core holds layer folders only; move this file into the layer it belongs to',
      "src/core/hooks/stopGate.ts: import '../git/gitCommand' (core/hooks (rank 2) may import only lower layers, not core/git (rank 2))",
    ]);
  });
});
