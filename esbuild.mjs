// Bundles the extension (vscode stays external: the editor provides it) and the CLI.
import * as esbuild from 'esbuild';
import { zodEnglishOnly } from './scripts/build/zodEnglishOnly.mjs';

const production = process.argv.includes('--production');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  plugins: [zodEnglishOnly],
};

await Promise.all([
  esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js' }),
  // Loaded by the `mcp` verb only (see src/cli/mcpVerb.ts).
  esbuild.build({ ...common, entryPoints: ['src/cli/mcpServer.ts'], outfile: 'dist/mcp.js' }),
  // `agentsync hook`: Node built-ins only until it needs the CLI (see src/cli/hookMain.ts); runs after every tool call.
  esbuild.build({ ...common, entryPoints: ['src/cli/hookMain.ts'], outfile: 'dist/hook.js' }),
]);
