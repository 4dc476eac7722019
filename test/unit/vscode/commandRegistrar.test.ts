// The one registrar (src/vscode/commandRegistrar.ts): every command of package.json has exactly one handler
// in its table, and the table has no command package.json does not contribute.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { installFakeVscode } from '../helpers/fakeVscode';

const root = path.resolve(__dirname, '../../../..');

describe('command registrar', () => {
  it('has one handler for each command of package.json contributes.commands, and none other', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    const contributed: string[] = manifest.contributes.commands.map((c) => c.command).sort();
    const uninstall = installFakeVscode();
    try {
      // Loaded now, with the stand-in in place (an import at the top would load it before).
      type Registrar = typeof import('../../../src/vscode/commandRegistrar');
      const { commandTable } = createRequire(__filename)('../../../src/vscode/commandRegistrar') as Registrar;
      const table = commandTable({} as Parameters<typeof commandTable>[0]);
      const ids: string[] = table.map(([id]) => id);
      const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
      assert.deepEqual(twice, [], 'commands with more than one handler');
      assert.deepEqual(
        contributed.filter((id) => !ids.includes(id)),
        [],
        'commands of package.json without a handler',
      );
      assert.deepEqual(
        ids.filter((id) => !contributed.includes(id)),
        [],
        'handlers of commands package.json does not contribute',
      );
      for (const [id, handler] of table) assert.equal(typeof handler, 'function', id);
    } finally {
      uninstall();
    }
  });
});
