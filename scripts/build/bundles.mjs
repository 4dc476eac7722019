// What esbuild.mjs builds, shared with bench/bundle-size.mjs so that the sizes it prints are those of the real
// build. The extension keeps `vscode` external (the editor provides it); the CLI's verbs share dist/cli.js, and
// what only one verb needs is loaded when that verb runs (README.md, "Development").
import { lazyEntities } from './lazyEntities.mjs';
import { sharedBuiltins } from './sharedBuiltins.mjs';
import { zodEnglishOnly } from './zodEnglishOnly.mjs';

/** esbuild options of every bundle; `production` minifies and drops source maps (the VSIX build). */
export function bundles({ production }) {
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    // Non-ASCII text (…, →, ·) as UTF-8, 3 bytes or fewer, not esbuild's default \uXXXX escapes of 6; Node reads
    // every bundle as UTF-8.
    charset: 'utf8',
    plugins: [zodEnglishOnly, lazyEntities, sharedBuiltins],
  };
  return [
    { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
    { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' },
    // Loaded by the `mcp` verb only (see src/cli/mcpVerb.ts).
    { ...common, entryPoints: ['src/cli/mcpServer.ts'], outfile: 'dist/mcp.js' },
    // `agentsync hook`: Node built-ins only until it needs the CLI (see src/cli/hookMain.ts); runs after every tool call.
    { ...common, entryPoints: ['src/cli/hookMain.ts'], outfile: 'dist/hook.js' },
    // markdown-it's HTML entity decoder, loaded on its first call by every bundle above (lazyEntities.mjs).
    { ...common, plugins: [], entryPoints: ['node_modules/entities/lib/decode.js'], outfile: 'dist/entities.js' },
  ];
}
