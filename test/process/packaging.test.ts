// What the VSIX ships: the production extension bundle stays within its size budget, and the package
// holds what the extension loads, the CLI it documents and the files package.json names, nothing else (no
// sources, tests, compiled tests, source maps, benches or the test editor). Real tools: esbuild through
// bench/bundle-size.mjs and `vsce ls`, run as child processes on this checkout.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './processHarness';

function run(args: string[]): string {
  const r = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8' });
  assert.equal(r.error, undefined, String(r.error));
  return r.stdout + (r.status === 0 ? '' : `\n(exit ${r.status}) ${r.stderr}`);
}

interface SizeReport {
  extensionBudget: number;
  withinBudget: boolean;
  bundles: { bundle: string; bytes: number; packages: { name: string; bytes: number }[] }[];
}

describe('packaging', function () {
  this.timeout(120_000);

  it('dist/extension.js, built for the VSIX (--production), is at most 440 KB', () => {
    const out = run([path.join(REPO_ROOT, 'bench/bundle-size.mjs'), '--json']);
    const report = JSON.parse(out.split('\n')[0]) as SizeReport;
    const extension = report.bundles.find((b) => b.bundle === 'dist/extension.js');
    assert.ok(extension, `no dist/extension.js in ${out}`);
    assert.equal(report.extensionBudget, 440 * 1024);
    const biggest = extension.packages.map((p) => `${p.name} ${(p.bytes / 1024).toFixed(0)} KB`).join(', ');
    assert.ok(extension.bytes <= 440 * 1024, `dist/extension.js is ${(extension.bytes / 1024).toFixed(1)} KB (largest: ${biggest})`);
    assert.equal(report.withinBudget, true);
  });

  it('the VSIX lists the bundles, bin, manifest, docs and the files package.json names, and nothing else', () => {
    const out = run([path.join(REPO_ROOT, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies']);
    const files = out.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      main: string;
      bin: Record<string, string>;
      contributes: { jsonValidation: { url: string }[]; viewsContainers: { activitybar: { icon: string }[] } };
    };
    const named = [
      manifest.main,
      ...Object.values(manifest.bin),
      ...manifest.contributes.jsonValidation.map((j) => j.url),
      ...manifest.contributes.viewsContainers.activitybar.map((v) => v.icon),
    ].map((p) => path.posix.normalize(p.replace(/^\.\//, '')));
    const bundles = fs.readdirSync(path.join(REPO_ROOT, 'dist')).filter((f) => f.endsWith('.js'));
    const templates = fs.readdirSync(path.join(REPO_ROOT, 'templates')).map((f) => `templates/${f}`);
    const expected = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', ...named, ...bundles.map((b) => `dist/${b}`), ...templates];
    for (const f of expected) assert.ok(files.includes(f), `${f} is missing from the VSIX: ${files.join(', ')}`);
    for (const bundle of ['dist/extension.js', 'dist/cli.js', 'dist/mcp.js', 'dist/hook.js']) assert.ok(files.includes(bundle), bundle);
    const allowed = new RegExp(
      '^(package\\.json|README\\.md|CHANGELOG\\.md|LICENSE|bin/agentsync\\.js|dist/[^/]+\\.js|media/.+|schemas/[^/]+\\.json|' +
        'templates/.+|docs/agentsync-documentation\\.md)$',
    );
    const extra = files.filter((f) => !allowed.test(f));
    assert.deepEqual(extra, [], `files that are not for the VSIX: ${extra.join(', ')}`);
  });

  it('npm pack then npm install -g of the tarball gives a working agentsync command (--help, a hook run, a verb)', function () {
    if (process.platform === 'win32') this.skip();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-npm-pack-'));
    const npm = (args: string[], cwd: string) => {
      // --offline: nothing may be fetched, as on a machine without the registry; a private cache keeps it clean.
      const r = spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--cache', path.join(tmp, 'cache')], {
        cwd,
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stdout}${r.stderr}`);
      return r.stdout;
    };
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], REPO_ROOT)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const shipped = packed[0].files.map((f) => f.path);
    for (const f of [
      'bin/agentsync.js',
      'dist/cli.js',
      'dist/hook.js',
      'dist/mcp.js',
      'dist/entities.js',
      'dist/cli.js.v8cache',
      'templates/agent-instructions.md',
      'package.json',
    ])
      assert.ok(shipped.includes(f), `${f} is missing from the npm package: ${shipped.join(', ')}`);
    const extra = shipped.filter((f) => /^(src|test|out|bench|scripts)\//.test(f) || f.endsWith('.map'));
    assert.deepEqual(extra, [], 'sources, tests or source maps in the npm package');
    const prefix = path.join(tmp, 'prefix');
    npm(['install', '-g', '--prefix', prefix, path.join(tmp, packed[0].filename)], tmp);
    const agentsync = path.join(prefix, 'bin', 'agentsync');
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'agentsync-npm-ws-'));
    const cmd = (args: string[], input?: string) => spawnSync(agentsync, args, { cwd: ws, encoding: 'utf8', input });
    const help = cmd(['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /usage: agentsync/);
    assert.equal(cmd(['init']).status, 0);
    const session = cmd(['hook', 'session-start', '--agent', 'claude'], JSON.stringify({ cwd: ws, hook_event_name: 'SessionStart' }));
    assert.equal(session.status, 0, session.stderr);
    assert.match(session.stdout, /additionalContext/);
    const post = cmd(['hook', 'post-tool-use', '--agent', 'claude'], JSON.stringify({ cwd: ws }));
    assert.equal(post.status, 0, post.stderr);
    const list = cmd(['--json', 'list']);
    assert.equal(list.status, 0, list.stderr);
    assert.equal((JSON.parse(list.stdout) as { ok: boolean }).ok, true);
    // The CLI starts from the code cache the package build made (bin/agentsync.js), and only for the bytes it was
    // made from: a changed bundle is compiled as usual and still answers.
    const report = (args: string[]) =>
      spawnSync(agentsync, args, { cwd: ws, encoding: 'utf8', env: { ...process.env, AGENTSYNC_CODE_CACHE_REPORT: '1' } });
    const cached = report(['--json', 'list']);
    assert.equal(cached.status, 0, cached.stderr);
    assert.match(cached.stderr, /^code cache: used$/m);
    const cli = path.join(prefix, 'lib', 'node_modules', 'agentsync', 'dist', 'cli.js');
    fs.appendFileSync(cli, '\n// changed after the build\n');
    const changed = report(['--json', 'list']);
    assert.equal(changed.status, 0, changed.stderr);
    assert.doesNotMatch(changed.stderr, /code cache/);
    assert.equal((JSON.parse(changed.stdout) as { ok: boolean }).ok, true);
  });
});
