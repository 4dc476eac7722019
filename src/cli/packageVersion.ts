// The version of this AgentSync: package.json's, the one place it is written (the VSIX and the npm tarball carry
// that file too). `agentsync --version` prints it and the MCP server gives it in its initialize answer.
import * as fs from 'node:fs';
import * as path from 'node:path';

let version: string | undefined;

/** package.json's version, read beside dist/ (the bundles) or three folders up (out/src/cli/, the compiled tests). */
export function packageVersion(): string {
  if (version) return version;
  for (const rel of ['..', '../../..']) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, rel, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agentsync' && pkg.version) return (version = pkg.version);
    } catch {
      // not here; try the next place
    }
  }
  return '0.0.0';
}
