// What README.md and the reference documentation state about the product, checked against the product itself: the
// Command Palette (package.json), the MCP tools (the action registry), how the CLI is installed, endSession's skip.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTION_NAMES } from '../../src/core/requests/catalog';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const DOC = 'docs/agentsync-documentation.md';

interface Manifest {
  contributes: { commands: { command: string }[]; menus: { commandPalette: { command: string; when?: string }[] } };
}

describe('the docs say what the code does', () => {
  it('"Every command is in the Command Palette": none is hidden, and before init only Initialize, Refresh, Install are offered', () => {
    assert.match(read(DOC), /Every command is in the Command Palette/);
    const manifest = JSON.parse(read('package.json')) as Manifest;
    const palette = new Map(manifest.contributes.menus.commandPalette.map((e) => [e.command, e.when]));
    for (const { command } of manifest.contributes.commands) {
      const when = palette.get(command);
      assert.notEqual(when, 'false', `${command} is hidden in the Command Palette`);
      const always = ['agentsync.init', 'agentsync.refresh', 'agentsync.installCommandInPath'].includes(command);
      assert.equal(when, always ? undefined : 'agentsync.initialized', `${command}: when ${String(when)}`);
    }
  });

  it("`agentsync mcp`: the documented tool list is the action registry's, and every count of tools or actions matches it", () => {
    const doc = read(DOC);
    const section = doc.slice(doc.indexOf('### `agentsync mcp`'), doc.indexOf('Limits and broken clients'));
    const listed = /Every \[action\]\(#actions\) is a tool of the same name \(([^)]*)\)/.exec(section.replace(/\n/g, ' '));
    assert.ok(listed, 'the mcp section lists its tools');
    const names = [...listed[1].matchAll(/`(\w+)`/g)].map((m) => m[1]);
    assert.deepEqual([...names].sort(), [...ACTION_NAMES].sort());
    for (const file of ['README.md', DOC]) {
      for (const m of read(file).matchAll(/\b(\d+) (tools|actions)\b|each of the (\d+) actions/g)) {
        if (m[2] === 'actions' && !/mcp|tool/i.test(m.input.slice(Math.max(0, m.index - 200), m.index + 200))) continue;
        assert.equal(Number(m[1] ?? m[3]), ACTION_NAMES.length, `${file}: "${m[0]}"`);
      }
    }
  });

  it('no doc installs a package the npm registry does not have (`npm i -g agentsync`); the tarball way is given', () => {
    for (const file of ['README.md', DOC]) {
      assert.doesNotMatch(read(file), /npm (i|install) (-g|--global) agentsync\b/, file);
    }
    assert.match(read(DOC), /npm pack` then `npm install -g \.\/agentsync-\*\.tgz`/);
  });

  it('README links the upgrade notes; they name the editor command as the manifest has it, and the old id as gone', () => {
    assert.match(read('README.md'), /\[docs\/upgrading\.md\]\(docs\/upgrading\.md\)/);
    const notes = read('docs/upgrading.md');
    const manifest = JSON.parse(read('package.json')) as Manifest;
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    assert.match(notes, /`agentsync\.returnHandoff`.*is now \*\*`agentsync\.requestRevision`\*\*/s);
    assert.ok(commands.has('agentsync.requestRevision') && commands.has('agentsync.returnToOriginator'));
    assert.ok(!commands.has('agentsync.returnHandoff'));
    for (const heading of [
      '## What moves, and what stays',
      '## `requireHandoffOnEndSession`',
      '## For orchestrators that drive the drop zone',
    ]) {
      assert.ok(notes.includes(heading), heading);
    }
  });
});
