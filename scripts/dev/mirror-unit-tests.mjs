#!/usr/bin/env node
// Moves the flat test/unit/*.test.ts into folders that mirror src/ (docs/architecture.md, "test, bench, scripts"): each
// test goes to the folder of the src/ file it is named after, else of src/ it imports most (test/unit/core/store/ for a
// test of src/core/store/), with `git mv`,
// and its relative paths are rewritten for the new depth: imports, require()/import() of sources, paths built from
// __dirname, and every mention of its old path elsewhere in the repository (comments, docs). A test that imports
// nothing of src/ stays where it is. One mechanical commit; run from the repository root:
//   node scripts/dev/mirror-unit-tests.mjs [--dry-run]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const dry = process.argv.includes('--dry-run');
const posix = path.posix;
const UNIT = 'test/unit';

/** Every src/ file by its base name (`passOverPolicyFile` -> `core/workspace`). */
function srcFolders() {
  const out = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = posix.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts')) out.set(e.name.slice(0, -3), posix.dirname(posix.relative('src', full)));
    }
  };
  walk('src');
  return out;
}
const SRC_FOLDERS = srcFolders();

/**
 * The src/ folder a test tests: that of the source file it is named after (`fileLock.test.ts`, `dropZone.processor`
 * -> `dropZoneProcessor` aside, the name before the first dot), else the folder it imports most by value (type-only
 * imports and core/domain, which nearly every test reads, count only when nothing else is imported), else null.
 */
function homeOf(file, text) {
  const named = SRC_FOLDERS.get(file.split('.')[0]);
  if (named !== undefined) return named;
  const counts = new Map();
  const count = (re) => {
    for (const m of text.matchAll(re)) {
      const dir = posix.dirname(m[1]);
      counts.set(dir, (counts.get(dir) ?? 0) + (dir === 'core/domain' ? 0.5 : 1));
    }
  };
  count(/^import (?!type )[^;]*?['"](?:\.\.\/)+src\/([\w/.-]+)['"]/gm);
  if (counts.size === 0) count(/['"](?:\.\.\/)+src\/([\w/.-]+)['"]/g);
  let best = null;
  for (const [dir, n] of counts) if (best === null || n > counts.get(best)) best = dir;
  return best;
}

/** `from`-relative specifier of `target` (both repository paths), with ./ when it does not climb. */
function relative(fromDir, target) {
  const rel = posix.relative(fromDir, target);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The test's text with its relative paths valid from newDir (sources and out/ mirror each other, so one rule serves). */
function rewrite(text, oldDir, newDir) {
  // Module specifiers: import … from '…', import('…'), require('…'), createRequire(…)('…').
  let out = text.replace(/((?:from|import|require)\s*\(?\s*|\)\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g, (all, head, q, spec) => {
    return `${head}${q}${relative(newDir, posix.join(oldDir, spec))}${q}`;
  });
  // Paths from __dirname: path.resolve(__dirname, '..', '..', '..') or path.join(__dirname, '../../../docs/x.md').
  out = out.replace(/__dirname((?:\s*,\s*'[^']*')+)/g, (all, args) => {
    const parts = [...args.matchAll(/'([^']*)'/g)].map((m) => m[1]);
    if (!parts[0].startsWith('..')) return all;
    return `__dirname, '${posix.relative(newDir, posix.join(oldDir, ...parts)) || '.'}'`;
  });
  return out;
}

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' });
const tests = fs.readdirSync(UNIT).filter((f) => f.endsWith('.test.ts'));
const moves = [];
for (const file of tests) {
  const text = fs.readFileSync(posix.join(UNIT, file), 'utf8');
  const home = homeOf(file, text);
  if (!home) {
    console.log(`stays   ${UNIT}/${file} (imports nothing of src/)`);
    continue;
  }
  moves.push({ from: posix.join(UNIT, file), to: posix.join(UNIT, home, file), text, home });
}
for (const m of moves) console.log(`${dry ? 'would move' : 'moves'}  ${m.from} -> ${m.to}`);
if (dry) process.exit(0);

for (const m of moves) {
  fs.mkdirSync(posix.dirname(m.to), { recursive: true });
  git('mv', m.from, m.to);
  fs.writeFileSync(m.to, rewrite(m.text, UNIT, posix.dirname(m.to)));
}
// Mentions of the old paths in the rest of the repository (comments, docs), longest first so no name is a prefix hit.
const tracked = git('ls-files', '-z')
  .split('\0')
  .filter((f) => /\.(ts|mjs|js|md|json|sh)$/.test(f) && fs.existsSync(f));
const byLength = [...moves].sort((a, b) => b.from.length - a.from.length);
for (const f of tracked) {
  const before = fs.readFileSync(f, 'utf8');
  let after = before;
  for (const m of byLength) after = after.split(m.from).join(m.to);
  if (after !== before) fs.writeFileSync(f, after);
}
console.log(`${moves.length} tests moved; now: npm run compile && npm run test:unit`);
