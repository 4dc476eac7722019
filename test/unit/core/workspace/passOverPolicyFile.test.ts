// Editing .agentsync.json's passOver for `agentsync policy` (core/passOverPolicyFile.ts): other keys and the file's
// indentation are kept, the result is checked like the loader checks the file, and a refused edit leaves the file as it was.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isActionError } from '../../../../src/core/domain/errors';
import { resetPolicy, setPolicyKeys } from '../../../../src/core/workspace/passOverPolicyFile';
import { listPolicies } from '../../../../src/core/domain/passOverPolicy';
import { loadConfig } from '../../../../src/core/workspace/configLoader';
import { makeTempDir, removeTempDirs } from '../../helpers/testWorkspace';

const AGENTS = { alice: ['code_patch'], audit: ['code_review'], scout: ['research'] };

function fileWith(text: string): string {
  const file = path.join(makeTempDir(), '.agentsync.json');
  fs.writeFileSync(file, text);
  return file;
}

/** Runs `edit`, which must be refused with `reason`; the file's bytes must be what they were. */
function refused(file: string, edit: () => unknown, reason: string, pathOf: string, message: RegExp): void {
  const before = fs.readFileSync(file);
  try {
    edit();
    assert.fail('the edit was accepted');
  } catch (e) {
    assert.ok(isActionError(e), String(e));
    assert.deepEqual([e.reason, e.details.path], [reason, pathOf]);
    assert.match(e.message, message);
  }
  assert.deepEqual(fs.readFileSync(file), before, 'the file is unchanged');
}

describe('passOver policy edits (agentsync policy, in core)', () => {
  after(removeTempDirs);

  it('set-pair keeps every other key, unknown keys too, and the file’s 4-space indentation', () => {
    const original = { $schema: './schemas/agentsync-config.schema.json', staleAfterHours: 4, agentCapabilities: AGENTS, zzz: 'kept' };
    const file = fileWith(JSON.stringify(original, null, 4) + '\n');
    const edit = setPolicyKeys(file, { kind: 'pair', from: 'Alice', to: 'audit' }, { auto_return: true, timeout_ms: 60_000 });
    assert.deepEqual([edit.path, edit.changed], ['passOver.pairs.alice->audit', true]);
    assert.match(String(edit.otherProblems), /unknown key "zzz"/, 'problems elsewhere are reported, not fixed');
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(
      text,
      JSON.stringify({ ...original, passOver: { pairs: { 'alice->audit': { auto_return: true, timeout_ms: 60_000 } } } }, null, 4) + '\n',
    );
    setPolicyKeys(file, { kind: 'pair', from: 'alice', to: 'audit' }, { timeout_ms: 90_000 });
    assert.deepEqual((JSON.parse(fs.readFileSync(file, 'utf8')) as { passOver: unknown }).passOver, {
      pairs: { 'alice->audit': { auto_return: true, timeout_ms: 90_000 } },
    });
  });

  it('set-default and set-subagent write their layers; list resolves them with their sources', () => {
    const file = fileWith(JSON.stringify({ agentCapabilities: AGENTS }, null, 2));
    setPolicyKeys(file, { kind: 'defaults' }, { max_chain_depth: 2 });
    setPolicyKeys(file, { kind: 'subagent', agent: 'audit' }, { can_receive_passes: false });
    setPolicyKeys(file, { kind: 'pair', from: 'alice', to: 'scout' }, { notify_on_return: 'only_issues' });
    const listing = listPolicies(loadConfig(file).config);
    assert.deepEqual(
      listing.map((l) => [l.scope, l.name, l.policy.max_chain_depth, l.sources.max_chain_depth, l.policy.notify_on_return]),
      [
        ['defaults', 'defaults', 2, 'passOver.defaults', true],
        ['subagent', 'audit', 2, 'passOver.defaults', true],
        ['pair', 'alice->scout', 2, 'passOver.defaults', 'only_issues'],
      ],
    );
    assert.equal(listing[1].sources.can_receive_passes, 'passOver.subagents.audit');
  });

  it('a missing file is created with just the policy', () => {
    const file = path.join(makeTempDir(), '.agentsync.json');
    setPolicyKeys(file, { kind: 'defaults' }, { auto_return: true });
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { passOver: { defaults: { auto_return: true } } });
  });

  it('refuses what the loader would refuse, naming the key path; the file is unchanged', () => {
    const file = fileWith(JSON.stringify({ agentCapabilities: AGENTS, passOver: {} }, null, 2) + '\n');
    const pair = { kind: 'pair', from: 'alice', to: 'audit' } as const;
    refused(file, () => setPolicyKeys(file, pair, { timeout_ms: 0 }), 'CONFIG_INVALID', 'passOver.pairs.alice->audit.timeout_ms', />0/);
    refused(
      file,
      () => setPolicyKeys(file, pair, { enabled: 'yes' }),
      'CONFIG_INVALID',
      'passOver.pairs.alice->audit.enabled',
      /expected boolean/,
    );
    refused(
      file,
      () => setPolicyKeys(file, pair, { notify_on_return: 'sometimes' }),
      'CONFIG_INVALID',
      'passOver.pairs.alice->audit.notify_on_return',
      /./,
    );
    refused(
      file,
      () => setPolicyKeys(file, { kind: 'pair', from: 'alice', to: 'audti' }, { enabled: false }),
      'CONFIG_INVALID',
      'passOver.pairs.alice->audti',
      /"audti" is not a configured agent \(did you mean "audit"\?\)/,
    );
    refused(
      file,
      () => setPolicyKeys(file, pair, { auto_apply: true, require_user_approval: true }),
      'PREFERENCE_CONFLICT',
      'passOver.pairs.alice->audit',
      /auto_apply is true .* require_user_approval is true/,
    );
  });

  it('a file that is not JSON, or whose passOver is not an object, is not rewritten', () => {
    const notJson = fileWith('{ "passOver": ');
    refused(
      notJson,
      () => setPolicyKeys(notJson, { kind: 'defaults' }, { auto_return: true }),
      'CONFIG_INVALID',
      '(file)',
      /not valid JSON/,
    );
    const wrong = fileWith('{ "passOver": [] }');
    refused(
      wrong,
      () => setPolicyKeys(wrong, { kind: 'defaults' }, { auto_return: true }),
      'CONFIG_INVALID',
      'passOver',
      /an array, expected an object/,
    );
  });

  it('an edit elsewhere is refused while another pair is broken; resetting the broken pair fixes the file', () => {
    const file = fileWith(JSON.stringify({ passOver: { pairs: { 'alice->audit': { enabeld: false } } } }, null, 2));
    refused(
      file,
      () => setPolicyKeys(file, { kind: 'defaults' }, { auto_return: true }),
      'CONFIG_INVALID',
      'passOver.pairs.alice->audit.enabeld',
      /did you mean "enabled"/,
    );
    assert.equal(resetPolicy(file, { kind: 'pair', from: 'alice', to: 'audit' }).changed, true);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { passOver: {} });
    assert.equal(loadConfig(file).problem, null);
  });

  it('reset: one layer, all of passOver, and nothing to reset leaves the file untouched', () => {
    const file = fileWith(
      JSON.stringify({ humans: ['dana'], passOver: { defaults: { auto_return: true }, subagents: { audit: { timeout_ms: 5 } } } }, null, 2),
    );
    assert.equal(resetPolicy(file, { kind: 'subagent', agent: 'audit' }).changed, true);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { humans: ['dana'], passOver: { defaults: { auto_return: true } } });
    const before = fs.readFileSync(file);
    assert.equal(resetPolicy(file, { kind: 'pair', from: 'a', to: 'b' }).changed, false);
    assert.deepEqual(fs.readFileSync(file), before);
    assert.equal(resetPolicy(file, { kind: 'all' }).changed, true);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { humans: ['dana'] });
  });

  it('never writes through a symlink', () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'real.json'), '{}');
    fs.symlinkSync(path.join(dir, 'real.json'), path.join(dir, '.agentsync.json'));
    assert.throws(
      () => setPolicyKeys(path.join(dir, '.agentsync.json'), { kind: 'defaults' }, { auto_return: true }),
      /not a regular file/,
    );
    assert.equal(fs.readFileSync(path.join(dir, 'real.json'), 'utf8'), '{}');
  });
});
