// .agentsync.json (DESIGN §7): missing → defaults; broken → one clear problem naming the key, and the
// defaults serve; nothing crashes; a fixed file is picked up.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig, parseConfigText } from '../../src/core/configLoader';
import { DEFAULT_CONFIG, knownAgents } from '../../src/core/configSchema';
import { DEFAULT_CONFIG_TEXT } from '../../src/core/workspaceInit';
import { handoffIn } from './helpers/handoffFixtures';
import { makeTempDir, removeTempDirs, TestWorkspace } from './helpers/testWorkspace';

describe('.agentsync.json (DESIGN §7)', () => {
  after(removeTempDirs);

  it('the defaults are AgentSync 0.3 values plus the new keys', () => {
    assert.equal(DEFAULT_CONFIG.staleAfterHours, 24);
    assert.equal(DEFAULT_CONFIG.autoStaleSessionMinutes, 0);
    assert.equal(DEFAULT_CONFIG.requireHandoffOnEndSession, false);
    assert.deepEqual(DEFAULT_CONFIG.commands, {});
    assert.deepEqual(DEFAULT_CONFIG.agentCapabilities, {});
    assert.deepEqual(DEFAULT_CONFIG.humans, []);
    assert.equal(DEFAULT_CONFIG.maxAttempts, 3);
  });

  it('a missing file means the defaults and no problem', () => {
    const loaded = loadConfig(path.join(makeTempDir(), '.agentsync.json'));
    assert.deepEqual(loaded, { config: DEFAULT_CONFIG, problem: null });
  });

  it('the file init writes is valid and lists the plan agents', () => {
    const loaded = parseConfigText(DEFAULT_CONFIG_TEXT);
    assert.equal(loaded.problem, null);
    assert.deepEqual(Object.keys(loaded.config.agentCapabilities), ['codex', 'copilot', 'claude']);
  });

  it('a partial file fills in the rest from the defaults', () => {
    const loaded = parseConfigText('{"staleAfterHours": 4, "commands": {"test": "npm test"}}');
    assert.equal(loaded.problem, null);
    assert.equal(loaded.config.staleAfterHours, 4);
    assert.equal(loaded.config.commands.test, 'npm test');
    assert.equal(loaded.config.maxAttempts, 3);
  });

  it('broken JSON: a problem that says so and what to do; the defaults serve', () => {
    const loaded = parseConfigText('{ "staleAfterHours": 4, ');
    assert.equal(loaded.config, DEFAULT_CONFIG);
    assert.match(loaded.problem!, /^\.agentsync\.json is not valid JSON \(.+\); fix it, the defaults are used until then$/);
  });

  const wrongTypes: [string, string, RegExp][] = [
    ['a string where a number belongs', '{"staleAfterHours": "soon"}', /staleAfterHours: .*expected number/i],
    ['a negative number', '{"staleAfterHours": -1}', /staleAfterHours: /],
    ['a non-boolean flag', '{"requireHandoffOnEndSession": "yes"}', /requireHandoffOnEndSession: .*expected boolean/i],
    ['maxAttempts below 1', '{"maxAttempts": 0}', /maxAttempts: /],
    ['a Title Case agent key', '{"agentCapabilities": {"Codex": ["code_patch"]}}', /agentCapabilities/],
    ['capabilities that are not a list', '{"agentCapabilities": {"codex": "code_patch"}}', /agentCapabilities\.codex: .*expected array/i],
    ['an unknown command key', '{"commands": {"lint": "x"}}', /commands: unknown field\(s\) "lint"/],
    ['a humans entry that is not an agent id', '{"humans": ["Alice Smith"]}', /humans\.0: agent ids are lowercase/],
    ['a bad pass-over pair key', '{"passOver": {"pairs": {"alice-bob": {}}}}', /passOver\.pairs/],
    ['the whole file is an array', '[]', /\(root\): .*expected object/i],
  ];
  for (const [what, text, expected] of wrongTypes) {
    it(`wrong type (${what}): the problem names the key; the defaults serve`, () => {
      const loaded = parseConfigText(text);
      assert.equal(loaded.config, DEFAULT_CONFIG);
      assert.match(loaded.problem!, expected);
      assert.match(loaded.problem!, /^\.agentsync\.json: .*; fix it, the defaults are used until then$/);
    });
  }

  it('a folder or symlink in place of the file is a problem, not a crash', () => {
    const dir = makeTempDir();
    fs.mkdirSync(path.join(dir, '.agentsync.json'));
    assert.match(loadConfig(path.join(dir, '.agentsync.json')).problem!, /not a regular file/);
    const dir2 = makeTempDir();
    fs.writeFileSync(path.join(dir2, 'real.json'), '{}');
    fs.symlinkSync(path.join(dir2, 'real.json'), path.join(dir2, '.agentsync.json'));
    assert.match(loadConfig(path.join(dir2, '.agentsync.json')).problem!, /not a regular file/);
  });

  it('knownAgents: null when no agents are configured, else the agents, the humans and "human"', () => {
    assert.equal(knownAgents(DEFAULT_CONFIG), null);
    const cfg = parseConfigText('{"agentCapabilities": {"codex": []}, "humans": ["alice"]}').config;
    assert.deepEqual([...knownAgents(cfg)!], ['codex', 'alice', 'human']);
  });

  describe('through the store', () => {
    it('a broken file is reported once, requests still work with the defaults, and a fix is picked up', async () => {
      const ws = new TestWorkspace({ config: '{"maxAttempts": "three", "humans": ["alice"]}', handoffs: [handoffIn('queued')] });
      // humans from the broken file must not apply: alice is nobody.
      const refused = await ws.dispatch({ action: 'transitionHandoff', handoffId: 'HO-20260221-001', agent: 'alice', to: 'escalated' });
      assert.equal(refused.reason, 'not_assigned');
      const ok = await ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20260221-001', agent: 'claude' });
      assert.equal(ok.ok, true, JSON.stringify(ok));
      await ws.dispatch({ action: 'listHandoffs' });
      assert.equal(ws.warnings.length, 1, JSON.stringify(ws.warnings));
      assert.match(ws.warnings[0], /maxAttempts: .*expected number/i);

      ws.writeConfig({ maxAttempts: 3, humans: ['alice'] });
      const later = new Date(Date.now() + 5_000);
      fs.utimesSync(ws.layout.configFile, later, later); // a distinct mtime even on coarse clocks
      const alice = await ws.dispatch({ action: 'transitionHandoff', handoffId: 'HO-20260221-001', agent: 'alice', to: 'escalated' });
      assert.equal(alice.ok, true, JSON.stringify(alice));
      assert.equal(ws.store.config().problem, null);
    });
  });
});
