// Runs scripts/generate-schemas.ts before the bundles are built (esbuild.mjs), so `npm run build` writes the schemas,
// package.json's generated contributes and src/vscode/manifest/commandIds.ts before tsc reads them: bundled with
// esbuild into a temporary file (no tsc needed first) and run with this Node, the repository as its argument.
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export async function generate(root) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-generate-'));
  try {
    const outfile = path.join(dir, 'generate.cjs');
    await esbuild.build({
      entryPoints: [path.join(root, 'scripts', 'generate-schemas.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile,
      logLevel: 'warning',
    });
    execFileSync(process.execPath, [outfile, root], { stdio: 'inherit' });
  } catch (e) {
    // The generator said what is wrong (on stderr, above); a failed bundle was reported by esbuild.
    process.exitCode = 1;
    throw new Error(`scripts/generate-schemas.ts failed (${e.status === undefined ? e.message : `exit ${e.status}`}): see above`, {
      cause: e,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
