// init's marked sections in AGENTS.md, CLAUDE.md and .github/copilot-instructions.md (docs/contract.md §10a): the user's text
// byte for byte, one section per file, replaced in place on the next run, broken markers and symlinks refused.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  INSTRUCTION_FILES,
  SECTION_END,
  SECTION_START,
  instructionSection,
  upsertMarkedSection,
} from '../../../../src/core/workspace/agentInstructions';
import { ActionError } from '../../../../src/core/domain/errors';
import { initWorkspace } from '../../../../src/core/workspace/workspaceInit';
import { storeSeed } from '../../../../src/core/store/storeReader';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe('agent instruction sections (init)', () => {
  afterEach(removeTempDirs);

  it('init twice on AGENTS.md, CLAUDE.md and .gitignore with user text: the text byte-identical, one section each, second run writes nothing', () => {
    const root = makeTempDir();
    const user = {
      'AGENTS.md': '# Team rules\n\nRun `make lint` before pushing.\n',
      'CLAUDE.md': 'Prefer small commits.', // no final newline
      '.gitignore': 'node_modules/\n*.log\n',
    };
    for (const [f, t] of Object.entries(user)) fs.writeFileSync(path.join(root, f), t);
    initWorkspace(root, storeSeed(root));
    const first = Object.fromEntries([...INSTRUCTION_FILES, '.gitignore'].map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
    assert.ok(
      first['AGENTS.md'].startsWith(`${user['AGENTS.md']}\n${SECTION_START}\n`),
      'appended after the user text with one blank line',
    );
    assert.ok(first['CLAUDE.md'].startsWith(`${user['CLAUDE.md']}\n\n${SECTION_START}\n`));
    assert.ok(first['.gitignore'].startsWith(user['.gitignore']));
    assert.match(first['.gitignore'], /\.agentsync\/state\.json/);
    for (const f of INSTRUCTION_FILES) {
      assert.equal(count(first[f], SECTION_START), 1, f);
      assert.equal(count(first[f], SECTION_END), 1, f);
      assert.ok(first[f].includes('"action": "startSession"'), `${f} tells the agent to start with startSession`);
    }
    const mtimes = INSTRUCTION_FILES.map((f) => fs.statSync(path.join(root, f)).mtimeMs);
    const report = initWorkspace(root, storeSeed(root));
    assert.deepEqual(report.instructions, { written: [], unchanged: [...INSTRUCTION_FILES] });
    for (const f of [...INSTRUCTION_FILES, '.gitignore'])
      assert.equal(fs.readFileSync(path.join(root, f), 'utf8'), first[f], `${f} unchanged`);
    assert.deepEqual(
      INSTRUCTION_FILES.map((f) => fs.statSync(path.join(root, f)).mtimeMs),
      mtimes,
    );
  });

  it('an old section is replaced in place: text before and after it kept byte for byte', () => {
    const before = '# Notes\r\nkeep me\r\n\r\n';
    const after = '\r\n\r\n## After\r\nand me\r\n';
    const text = `${before}${SECTION_START}\nold instructions\n${SECTION_END}${after}`;
    const next = upsertMarkedSection(text, instructionSection('20260310'), 'AGENTS.md');
    assert.equal(next, `${before}${instructionSection('20260310')}${after}`);
    assert.equal(upsertMarkedSection(next, instructionSection('20260310'), 'AGENTS.md'), next);
  });

  it('a start marker without its end is reported, and nothing is created or changed', () => {
    const root = makeTempDir();
    const broken = `mine\n${SECTION_START}\nhalf a section, and my text after it\n`;
    fs.writeFileSync(path.join(root, 'CLAUDE.md'), broken);
    fs.writeFileSync(path.join(root, 'AGENTS.md'), 'agents\n');
    assert.throws(
      () => initWorkspace(root, storeSeed(root)),
      (e: unknown) =>
        e instanceof ActionError && e.reason === 'marker_broken' && /CLAUDE\.md has 1 .* and 0 .*Nothing was changed/.test(e.message),
    );
    assert.equal(fs.readFileSync(path.join(root, 'CLAUDE.md'), 'utf8'), broken);
    assert.equal(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8'), 'agents\n');
    assert.deepEqual(fs.readdirSync(root).sort(), ['AGENTS.md', 'CLAUDE.md']);
  });

  it('two sections, or an end before the start, are refused too', () => {
    const s = instructionSection('20260310');
    assert.throws(() => upsertMarkedSection(`${s}\n${s}\n`, s, 'AGENTS.md'), /marker/);
    assert.throws(() => upsertMarkedSection(`${SECTION_END}\n${SECTION_START}\n`, s, 'AGENTS.md'), /start first/);
  });

  it('an instruction file that is a symlink is refused, never written through', () => {
    const root = makeTempDir();
    const target = path.join(makeTempDir(), 'elsewhere.md');
    fs.writeFileSync(target, 'not yours\n');
    fs.symlinkSync(target, path.join(root, 'AGENTS.md'));
    assert.throws(
      () => initWorkspace(root, storeSeed(root)),
      (e: unknown) => e instanceof ActionError && e.reason === 'store_unsafe',
    );
    assert.equal(fs.readFileSync(target, 'utf8'), 'not yours\n');
    assert.equal(fs.existsSync(path.join(root, 'CLAUDE.md')), false);
  });

  it('a fresh folder gets all three files, the Copilot one under .github/', () => {
    const root = makeTempDir();
    const report = initWorkspace(root, storeSeed(root), { now: new Date('2026-03-10T12:00:00.000Z') });
    assert.deepEqual(report.instructions.written, [...INSTRUCTION_FILES]);
    assert.equal(fs.readFileSync(path.join(root, '.github/copilot-instructions.md'), 'utf8'), `${instructionSection('20260310')}\n`);
  });

  it('the examples carry the day of the first init; an init on a later day keeps the section as it is', () => {
    const root = makeTempDir();
    initWorkspace(root, storeSeed(root), { now: new Date('2026-03-10T23:59:00.000Z') });
    const first = fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8');
    assert.ok(first.includes('"handoffId": "HO-20260310-001"'));
    assert.ok(!first.includes('{{date}}'));
    const report = initWorkspace(root, storeSeed(root), { now: new Date('2026-04-02T08:00:00.000Z') });
    assert.deepEqual(report.instructions.written, []);
    assert.equal(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8'), first);
  });
});
