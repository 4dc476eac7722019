// npm 11 runs (and, from npm 12, only runs) the install scripts of dependencies that package.json's `allowScripts`
// names: each locked package with an install script must be there, approved, and nothing else (npm 10 ignores the field).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

interface Lock {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
}

describe('package.json allowScripts', () => {
  it('approves exactly the locked packages that have install scripts, by name (the form `npm install-scripts approve` writes)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lock;
    const withScripts = Object.entries(lock.packages)
      .filter(([where, p]) => where !== '' && p.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
    assert.ok(withScripts.length > 0, 'the lockfile marks install scripts (hasInstallScript)');
    assert.ok(manifest.allowScripts, 'package.json has no allowScripts: npm 11 warns about every install script, npm 12 skips them');
    assert.deepEqual(Object.keys(manifest.allowScripts).sort(), [...new Set(withScripts)].sort());
    for (const [name, allowed] of Object.entries(manifest.allowScripts)) assert.equal(allowed, true, name);
  });
});
