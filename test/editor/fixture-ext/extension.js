// Fixture for scripts/editor/run-editor-tests.mjs: one command with a known result.
const vscode = require('vscode');

exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('fixture.hello', () => 42));
};
exports.deactivate = () => {};
