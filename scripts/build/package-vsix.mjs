#!/usr/bin/env node
// `npm run package`: builds agentsync-<version>.vsix at the checkout's root from a staged folder.
//
// Why a staged folder: the npm tarball (the CLI) and the VSIX (the extension) need different files, and both npm and
// vsce read the one package.json's `files`; vsce refuses a .vscodeignore beside a non-empty `files` (even with
// --ignoreFile). So package.json's `files` stays npm's list, VSIX_FILES below is the VSIX's, and this script copies
// exactly those into a temporary folder whose package.json names them in `files` (vsce wants one of the two lists)
// and carries no build scripts (the bundles are built here first). test/process/packaging.test.ts builds both
// artifacts and checks their lists.
//
// `--refuse` is package.json's `vscode:prepublish`: `vsce package` run in the checkout itself would pack npm's list,
// so it stops there with one line pointing here. Publish the file this builds: `vsce publish --packagePath <vsix>`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the VSIX holds besides package.json, README.md, CHANGELOG.md and LICENSE (a folder ends with /). */
const VSIX_FILES = [
  'dist/extension.js',
  // The CLI the extension puts on its terminals' PATH, and what its verbs load.
  'bin/agentsync.js',
  'bin/package.json',
  'dist/cli.js',
  'dist/hook.js',
  'dist/mcp.js',
  'dist/entities.js',
  'templates/',
  // contributes.jsonValidation
  'schemas/',
  'docs/agentsync-documentation.md',
  // The activity bar and views, the Marketplace icon, the dashboard page, the walkthrough, and README's images
  // (packed with --no-rewrite-relative-links, so the Extensions view shows them from the installed folder).
  'media/agentsync.svg',
  'media/icon.png',
  'media/dashboard.css',
  'media/dashboard.js',
  'media/walkthrough/',
  'media/demo.png',
  'media/dashboard.png',
  'media/explorer-hot-files.png',
];
const ALWAYS = ['README.md', 'CHANGELOG.md', 'LICENSE'];

if (process.argv.includes('--refuse')) {
  console.error('agentsync: package the VSIX with `npm run package` (scripts/build/package-vsix.mjs), not `vsce` in the checkout.');
  process.exit(1);
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run(process.execPath, [path.join(root, 'esbuild.mjs'), '--production'], root);
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-vsix-'));
try {
  for (const f of [...VSIX_FILES, ...ALWAYS]) {
    const from = path.join(root, f);
    if (!fs.existsSync(from)) throw new Error(`${f} is missing; the VSIX needs it (scripts/build/package-vsix.mjs)`);
    fs.cpSync(from, path.join(stage, f), { recursive: true });
  }
  const { scripts: _scripts, ...staged } = manifest;
  staged.files = [...VSIX_FILES, ...ALWAYS];
  fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(staged, null, 2) + '\n');
  const out = path.join(root, `${manifest.name}-${manifest.version}.vsix`);
  run(
    process.execPath,
    [path.join(root, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out],
    stage,
  );
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
