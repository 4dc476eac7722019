// Bundles the extension and the CLI into dist/ (the list is in scripts/build/bundles.mjs); --production minifies.
import * as esbuild from 'esbuild';
import { bundles } from './scripts/build/bundles.mjs';

const production = process.argv.includes('--production');
await Promise.all(bundles({ production }).map((options) => esbuild.build(options)));
