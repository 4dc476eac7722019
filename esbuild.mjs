// Writes what is generated from the code (scripts/build/generate.mjs), then bundles the extension and the CLI into
// dist/ (the list is in scripts/build/bundles.mjs); --production minifies and, for the npm package, writes the CLI's code cache (scripts/build/codeCache.mjs).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundles } from './scripts/build/bundles.mjs';
import { removeCliCodeCache, writeCliCodeCache } from './scripts/build/codeCache.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
// esbuild and the bundled packages are dev dependencies: in a checkout without them (`npm pack` or `npm run build`
// right after a clone) say what to do in one line rather than Node's stack trace.
const esbuild = await import('esbuild').catch((e) => {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  console.error('agentsync: building dist/ needs the dev dependencies: run `npm ci` first, then run this command again.');
  process.exit(1);
});
// generate.mjs bundles with esbuild too: loaded once esbuild is known to be there.
const { generate } = await import('./scripts/build/generate.mjs');
const production = process.argv.includes('--production');
removeCliCodeCache(root);
// First what is generated from the code (schemas, package.json's contributes, the command id type): tsc reads it next.
await generate(root).catch((e) => {
  console.error(e.message);
  process.exit(1);
});
await Promise.all(bundles({ production }).map((options) => esbuild.build(options)));
if (production) writeCliCodeCache(root);
