// Test entry loaded by the extension host (extensionTestsPath): run() drives mocha,
// exactly as @vscode/test-electron would.
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
  });

  const failures = await new Promise((ok) => mocha.run(ok));
  if (failures > 0) throw new Error(`${failures} test(s) failed`);
};
