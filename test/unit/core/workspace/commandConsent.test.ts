// Configured commands run only with the local user's consent (docs/contract.md §7, §12): a SHA-256 of the workspace and its
// commands, recorded outside the repository; `health` never deploys; concurrent requests never overlap their runs.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandsDigest, consentState, grantConsent, revokeConsent, trustFilePath } from '../../../../src/core/workspace/commandConsent';
import { TestWorkspace, removeTempDirs, makeTempDir } from '../../helpers/testWorkspace';
import { trustWorkspace, useTempTrustFile } from '../../helpers/commandTrust';

const node = process.execPath;
/** A command that appends "start <ms>" and "end <ms>" lines to `log`, sleeping `ms` between them. */
const timed = (log: string, ms: number) => [
  node,
  '-e',
  `const fs=require('fs');fs.appendFileSync(${JSON.stringify(log)},'start ` +
    `'+Date.now()+'\\n');setTimeout(()=>fs.appendFileSync(${JSON.stringify(log)},'end '+Date.now()+'\\n'),${ms})`,
];
const mark = (file: string) => [node, '-e', `require('fs').writeFileSync(${JSON.stringify(file)}, 'ran')`];

describe('command consent (agentsync trust) and the health action', function () {
  this.timeout(60_000);
  after(removeTempDirs);
  const trustFile = useTempTrustFile();

  it('the trust file lives outside the repository: AGENTSYNC_TRUST_FILE, else XDG_CONFIG_HOME, else ~/.config', () => {
    assert.equal(trustFilePath({ AGENTSYNC_TRUST_FILE: '/x/t.json' }), '/x/t.json');
    // Relative: the user's home folder, never the current folder (a repository's).
    assert.equal(trustFilePath({ AGENTSYNC_TRUST_FILE: 'my/t.json' }), path.join(os.homedir(), 'my', 't.json'));
    assert.equal(trustFilePath({ AGENTSYNC_TRUST_FILE: '../t.json' }), path.resolve(os.homedir(), '..', 't.json'));
    assert.equal(trustFilePath({ XDG_CONFIG_HOME: '/cfg' }), path.join('/cfg', 'agentsync', 'trusted.json'));
    assert.match(trustFilePath({}), /\.config[\\/]agentsync[\\/]trusted\.json$/);
  });

  it('consent is for exactly these commands in this workspace: a change or another folder needs a new trust', () => {
    const a = makeTempDir();
    const b = makeTempDir();
    const commands = { build: ['make'] };
    assert.equal(consentState(a, commands).trusted, false);
    assert.equal(consentState(a, {}).trusted, true, 'no commands: nothing to consent to');
    grantConsent(a, commands);
    assert.equal(consentState(a, commands).trusted, true);
    assert.equal(consentState(a, { build: ['make', 'all'] }).trusted, false, 'changed commands');
    assert.equal(consentState(b, commands).trusted, false, 'another workspace');
    assert.notEqual(commandsDigest(a, commands), commandsDigest(b, commands));
    assert.equal(revokeConsent(a), true);
    assert.equal(consentState(a, commands).trusted, false);
  });

  it('never writes through a symlink in place of the trust file', () => {
    const target = path.join(makeTempDir(), 'elsewhere.json');
    fs.writeFileSync(target, '{}');
    fs.rmSync(trustFile(), { force: true });
    fs.symlinkSync(target, trustFile());
    try {
      assert.throws(() => grantConsent(makeTempDir(), { build: ['make'] }), /not a regular file/);
      assert.equal(fs.readFileSync(target, 'utf8'), '{}');
    } finally {
      fs.rmSync(trustFile());
    }
  });

  it('health in an untrusted workspace: refused with commands_untrusted naming the commands and agentsync trust; nothing runs', async () => {
    const ws = new TestWorkspace({ config: { commands: { build: mark('built') } } });
    const r = await ws.dispatch({ action: 'health' });
    assert.equal(r.ok, false);
    assert.equal(r.reason, 'commands_untrusted');
    assert.match(r.message!, /agentsync trust/);
    assert.match(r.message!, /build: .*built/);
    assert.equal(fs.existsSync(path.join(ws.root, 'built')), false);
    trustWorkspace(ws.root);
    const ok = await ws.dispatch({ action: 'health' });
    assert.equal(ok.ok, true, JSON.stringify(ok));
    assert.equal(fs.existsSync(path.join(ws.root, 'built')), true);
  });

  it('health never deploys: Deploy is Skipped and its command does not run', async () => {
    const ws = new TestWorkspace({ config: { commands: { build: mark('built'), deploy: mark('deployed') } } });
    trustWorkspace(ws.root);
    const r = await ws.dispatch({ action: 'health' });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual((r.data as { results: unknown }).results, { Build: 'Pass', Tests: 'Not configured', Deploy: 'Skipped' });
    assert.equal(fs.existsSync(path.join(ws.root, 'built')), true);
    assert.equal(fs.existsSync(path.join(ws.root, 'deployed')), false, 'deploy must not run from health');
  });

  it('200 concurrent health requests: the builds never overlap, and they coalesce (at most 2 runs)', async () => {
    const root = makeTempDir();
    const log = path.join(root, 'runs.log');
    const ws = new TestWorkspace({ config: { commands: { build: timed(log, 150) } } });
    trustWorkspace(ws.root);
    const answers = await Promise.all(Array.from({ length: 200 }, () => ws.dispatch({ action: 'health' })));
    assert.ok(
      answers.every((a) => a.ok),
      JSON.stringify(answers.find((a) => !a.ok)),
    );
    const lines = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' '));
    const starts = lines.filter(([k]) => k === 'start').length;
    assert.ok(starts >= 1 && starts <= 2, `${starts} builds for 200 requests`);
    for (let i = 0; i < lines.length; i += 2)
      assert.deepEqual(
        [lines[i][0], lines[i + 1]?.[0]],
        ['start', 'end'],
        `run ${i / 2} finished before the next started: ${lines.join(' | ')}`,
      );
  });

  it('two dispatchers of one process on one workspace (health, health, endSession) run their commands one at a time', async () => {
    const root = makeTempDir();
    const log = path.join(root, 'runs.log');
    const ws = new TestWorkspace({ config: { commands: { build: timed(log, 150) } } });
    trustWorkspace(ws.root);
    const other = ws.secondDispatcher();
    await Promise.all([
      ws.dispatch({ action: 'health' }),
      other.dispatch({ action: 'health' }),
      ws.dispatch({ action: 'endSession', agent: 'claude', summary: 's' }),
    ]);
    const lines = fs
      .readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]);
    assert.ok(lines.length >= 4);
    for (let i = 0; i < lines.length; i += 2) assert.deepEqual([lines[i], lines[i + 1]], ['start', 'end'], lines.join(' '));
  });
});
