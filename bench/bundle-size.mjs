// Bundle sizes: builds every bundle of esbuild.mjs as the VSIX does (--production), in memory, with
// esbuild's metafile, and prints each bundle's size and what fills it, by package and by file. dist/extension.js
// has a budget: the exit status is 1 when it is over EXTENSION_BUDGET (test/process/packaging.test.ts checks it).
// Usage: node bench/bundle-size.mjs [--top N] [--json]
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundles } from '../scripts/build/bundles.mjs';

// 400 KB until the sync engine (docs/contract.md §13) joined the editor's bundle: the editor's own writes go through
// the git remote when sync is on, and its fetch/apply/push code is about 15 KB minified. 440 KB since the action
// catalog (src/core/requests/catalog/): each action's one definition carries the text of every surface (CLI usage,
// editor command, Dashboard and Copilot tool), and the sync engine's checks of the shared ref grew (about 8 KB together).
// 480 KB since one record per clone (docs/contract.md §14: worktree discovery, the home, its seeding and following,
// sessions as holders), the sync consent and lost-reply settlement, and the editor's new-work notices: 462 KB then.
// 520 KB since the rest of delegation (docs/contract.md §6: fan-out and join, the work context, a receiver's
// permissions, the output-schema checker, withdraw), the editor's drop zone for every worktree and Open in New
// Worktree, and the merged and worktree_gone checks: 504 KB then.
// 560 KB since shared format 2 (docs/contract.md §13: per-record blobs, one cat-file conversation, the fast-import
// writer, the archive in sync mode), per-file review (its action, the tree's file nodes and the git-object diff),
// loops across separate handoffs and the pair limit, session-end hand-back and the hooks' declared readers: 536 KB then.
export const EXTENSION_BUDGET = 560 * 1024;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--top');
const TOP = at > 0 ? Number(process.argv[at + 1]) : 8;
const json = process.argv.includes('--json');

/** `node_modules/zod/v4/core/schemas.js` -> `zod`; our own files -> `(agentsync) src/...` top folder. */
function packageOf(file) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (m) return m[1];
  return file.includes(':') ? file.slice(0, file.indexOf(':')) : `(agentsync) ${file.split('/').slice(0, 2).join('/')}`;
}

const top = (entries) =>
  [...entries]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([name, bytes]) => ({ name, bytes }));

const report = [];
for (const options of bundles({ production: true })) {
  const result = await esbuild.build({ ...options, absWorkingDir: ROOT, write: false, metafile: true, logLevel: 'error' });
  const output = result.metafile.outputs[Object.keys(result.metafile.outputs).find((k) => k.endsWith('.js'))];
  const byPackage = new Map();
  const byFile = new Map();
  for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
    const short = file.replace(/^.*node_modules\//, '');
    byFile.set(short, bytesInOutput);
    byPackage.set(packageOf(file), (byPackage.get(packageOf(file)) ?? 0) + bytesInOutput);
  }
  report.push({ bundle: options.outfile, bytes: output.bytes, packages: top(byPackage), files: top(byFile) });
}

const extension = report.find((r) => r.bundle === 'dist/extension.js');
const withinBudget = extension.bytes <= EXTENSION_BUDGET;
if (json) console.log(JSON.stringify({ extensionBudget: EXTENSION_BUDGET, withinBudget, bundles: report }));
else {
  const kb = (b) => `${(b / 1024).toFixed(1).padStart(7)} KB`;
  for (const r of report) {
    console.log(`${r.bundle.padEnd(20)} ${kb(r.bytes)}   (production build: minified, no source map)`);
    console.log('  by package:');
    for (const p of r.packages) console.log(`    ${kb(p.bytes)}  ${p.name}`);
    console.log('  largest files:');
    for (const f of r.files) console.log(`    ${kb(f.bytes)}  ${f.name}`);
  }
  console.log(
    `dist/extension.js: ${kb(extension.bytes).trim()} of a ${EXTENSION_BUDGET / 1024} KB budget: ${withinBudget ? 'within' : 'OVER'}`,
  );
}
process.exitCode = withinBudget ? 0 : 1;
