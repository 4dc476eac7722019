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

// Compiled to out/test/unit/: the sources are three levels up.
const SRC = path.resolve(__dirname, '../../../src');

describe('import direction (docs/architecture.md)', () => {
  it('every import under src/ runs the allowed way', () => {
    const files = readSources(SRC);
    assert.ok(files.size > 100, `expected the whole src/ tree, read ${files.size} files from ${SRC}`);
    assert.deepEqual(violations(files), []);
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
