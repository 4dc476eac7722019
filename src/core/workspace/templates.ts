// The files `init` writes come from templates/ at the package root (docs/agentsync-documentation.md, "Initialize"):
// the instruction section, the tracker, the config and opencode's plugin. They are read at run time, so the bundled CLI (dist/), the
// extension and the compiled tests (out/) all use the one copy that ships in the VSIX.
import * as fs from 'node:fs';
import * as path from 'node:path';

export type TemplateName = 'agent-instructions.md' | 'AgentTracker.md' | 'agentsync.json' | 'opencode-plugin.js';

let templatesDir: string | null = null;

/** templates/ beside the nearest package.json above this module (dist/ and out/src/core/ sit at different depths). */
function findTemplatesDir(): string {
  if (templatesDir) return templatesDir;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'templates');
    if (fs.existsSync(path.join(candidate, 'agent-instructions.md')) && fs.existsSync(path.join(dir, 'package.json'))) {
      templatesDir = candidate;
      return candidate;
    }
    dir = path.dirname(dir);
  }
  throw new Error(`AgentSync's templates/ folder was not found above ${__dirname}; reinstall AgentSync (the package is incomplete).`);
}

const cache = new Map<TemplateName, string>();

export function readTemplate(name: TemplateName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = fs.readFileSync(path.join(findTemplatesDir(), name), 'utf8');
    cache.set(name, text);
  }
  return text;
}
