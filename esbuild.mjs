// Writes what is generated from the code (scripts/build/generate.mjs), then bundles the extension and the CLI into
// dist/ (the list is in scripts/build/bundles.mjs); --production minifies and, for the npm package, writes the CLI's code cache (scripts/build/codeCache.mjs).
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundles } from './scripts/build/bundles.mjs';
import { removeCliCodeCache, writeCliCodeCache } from './scripts/build/codeCache.mjs';
import { generate } from './scripts/build/generate.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
removeCliCodeCache(root);
// First what is generated from the code (schemas, package.json's contributes, the command id type): tsc reads it next.
await generate(root).catch((e) => {
  console.error(e.message);
  process.exit(1);
});
await Promise.all(bundles({ production }).map((options) => esbuild.build(options)));
if (production) writeCliCodeCache(root);
