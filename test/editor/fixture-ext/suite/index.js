// Test entry loaded by the extension host (extensionTestsPath): run() drives mocha,
// exactly as @vscode/test-electron would.
const fs = require('fs');
const os = require('os');
const path = require('path');
const assert = require('assert');
const vscode = require('vscode');

// mocha from the repo's node_modules (this folder has none of its own).
const mochaPath = path.resolve(__dirname, '../../../../node_modules/mocha');

exports.run = async () => {
  const mod = require(mochaPath);
  const Mocha = mod.default || mod; // mocha 12 is ESM; require(esm) gives a namespace
  const mocha = new Mocha({ ui: 'tdd', timeout: 20000, color: false });
  mocha.suite.emit('pre-require', globalThis, 'fixture', mocha);

  suite('real editor fixture', () => {
    test('runs inside VS Code 1.x', () => {
      assert.ok(vscode.version.startsWith('1.'), `vscode.version = ${vscode.version}`);
    });
    test('fixture.hello returns 42', async () => {
      assert.strictEqual(await vscode.commands.executeCommand('fixture.hello'), 42);
    });
    test('runner takes a screenshot on request', async () => {
      // Protocol of scripts/editor/run-editor-tests.mjs: log the request, poll for the file.
      const png = path.join(os.tmpdir(), `agentsync-fixture-${process.pid}.png`);
      fs.rmSync(png, { force: true });
      console.log(`AGENTSYNC_SCREENSHOT ${png}`);
      for (let i = 0; i < 100 && !fs.existsSync(png); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(fs.statSync(png).size > 1000, 'screenshot file written');
      fs.rmSync(png, { force: true });
    });
  });

  const failures = await new Promise((ok) => mocha.run(ok));
  if (failures > 0) throw new Error(`${failures} test(s) failed`);
};
