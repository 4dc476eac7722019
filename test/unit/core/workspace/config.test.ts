// .agentsync.json (docs/contract.md §7): missing → defaults; broken → one clear problem naming the key, and the
// defaults serve; nothing crashes; a fixed file is picked up.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig, parseConfigText } from '../../../../src/core/workspace/configLoader';
import { defaultConfig, knownAgents } from '../../../../src/core/domain/configSchema';
import { defaultConfigText } from '../../../../src/core/workspace/workspaceInit';
import { handoffIn } from '../../helpers/handoffFixtures';
import { makeTempDir, removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

describe('.agentsync.json (docs/contract.md §7)', () => {
  after(removeTempDirs);

  it('the defaults are AgentSync 0.3 values plus the new keys', () => {
    assert.equal(defaultConfig().staleAfterHours, 24);
    assert.equal(defaultConfig().autoStaleSessionMinutes, 0);
    assert.equal(defaultConfig().requireHandoffOnEndSession, false);
    assert.deepEqual(defaultConfig().commands, {});
    assert.deepEqual(defaultConfig().agentCapabilities, {});
    assert.deepEqual(defaultConfig().humans, []);
    assert.equal(defaultConfig().maxAttempts, 3);
  });

  it('a missing file means the defaults and no problem', () => {
    const loaded = loadConfig(path.join(makeTempDir(), '.agentsync.json'));
    assert.deepEqual(loaded, { config: defaultConfig(), problem: null });
  });

  it('the file init writes is valid and lists the plan agents', () => {
    const loaded = parseConfigText(defaultConfigText());
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

  it('broken JSON: a problem that says so and what to do; the defaults serve, restrictive sections fail closed', () => {
    const loaded = parseConfigText('{ "staleAfterHours": 4, ');
    assert.match(loaded.problem!, /^\.agentsync\.json is not valid JSON \(.+\); fix it\. Until then the defaults are used, except/);
    assert.equal(loaded.config.staleAfterHours, defaultConfig().staleAfterHours);
    assert.equal(loaded.config.requireHandoffOnEndSession, true);
    assert.deepEqual(Object.keys(loaded.config.brokenSections!).sort(), ['agentCapabilities', 'passOver', 'requireHandoffOnEndSession']);
  });

  // [what, text, the problem names, the section that falls back or fails closed]
  const wrongTypes: [string, string, RegExp, string][] = [
    [
      'a string where a number belongs',
      '{"staleAfterHours": "soon", "maxAttempts": 7}',
      /staleAfterHours: .*expected number.*\(the default is used until you fix it\)/i,
      'staleAfterHours',
    ],
    ['a negative number', '{"staleAfterHours": -1, "maxAttempts": 7}', /staleAfterHours: /, 'staleAfterHours'],
    ['maxAttempts below 1', '{"maxAttempts": 0, "staleAfterHours": 5}', /maxAttempts: /, 'maxAttempts'],
    ['an unknown command key', '{"commands": {"lint": "x"}, "maxAttempts": 7}', /commands: unknown field\(s\) "lint"/, 'commands'],
    [
      'a humans entry that is not an agent id',
      '{"humans": ["Alice Smith"], "maxAttempts": 7}',
      /humans\.0: agent ids are lowercase/,
      'humans',
    ],
  ];
  for (const [what, text, expected, section] of wrongTypes) {
    it(`wrong type (${what}): the problem names the key; only ${section} falls back to its default, the rest applies`, () => {
      const loaded = parseConfigText(text);
      assert.match(loaded.problem!, expected);
      assert.match(loaded.problem!, /^\.agentsync\.json: /);
      assert.deepEqual((loaded.config as Record<string, unknown>)[section], (defaultConfig() as Record<string, unknown>)[section]);
      const other = JSON.parse(text) as Record<string, unknown>;
      for (const [k, v] of Object.entries(other))
        if (k !== section) assert.deepEqual((loaded.config as Record<string, unknown>)[k], v, `${k} still applies`);
      assert.equal(loaded.config.brokenSections, undefined);
    });
  }

  it('one bad command key no longer drops the rest: a disabled pass-over pair still applies', () => {
    const loaded = parseConfigText(
      '{"commands": {"build": "make", "lnt": "x"}, "passOver": {"pairs": {"scout->audit": {"enabled": false}}}}',
    );
    assert.deepEqual(loaded.config.passOver.pairs, { 'scout->audit': { enabled: false } });
    assert.deepEqual(loaded.config.commands, {}, 'the broken commands section runs nothing');
    assert.match(loaded.problem!, /commands: unknown field\(s\) "lnt"/);
  });

  it('unknown keys are reported, once, naming the key, with a did-you-mean when close', () => {
    const loaded = parseConfigText('{"staleAfterHour": 4, "requireHandofOnEndSession": true, "zzz": 1, "commands": {"tset": "npm test"}}');
    assert.match(loaded.problem!, /unknown key "staleAfterHour" \(did you mean "staleAfterHours"\?\), ignored/);
    assert.match(loaded.problem!, /unknown key "requireHandofOnEndSession" \(did you mean "requireHandoffOnEndSession"\?\)/);
    assert.match(loaded.problem!, /unknown key "zzz", ignored/);
    assert.match(loaded.problem!, /"tset" \(did you mean "test"\?\)/);
    assert.equal(loaded.config.staleAfterHours, 24);
  });

  const failClosed: [string, string, string][] = [
    ['a non-boolean requireHandoffOnEndSession', '{"requireHandoffOnEndSession": "yes"}', 'requireHandoffOnEndSession'],
    ['a Title Case agent key', '{"agentCapabilities": {"Codex": ["code_patch"]}}', 'agentCapabilities'],
    ['capabilities that are not a list', '{"agentCapabilities": {"codex": "code_patch"}}', 'agentCapabilities'],
    ['a bad pass-over pair key', '{"passOver": {"pairs": {"alice-bob": {}}}}', 'passOver'],
    ['a misspelled pass-over policy key', '{"passOver": {"defaults": {"enabeld": false}}}', 'passOver'],
  ];
  for (const [what, text, section] of failClosed) {
    it(`restrictive section (${what}): fails closed and says so`, () => {
      const loaded = parseConfigText(text);
      assert.ok(loaded.config.brokenSections?.[section as 'passOver'], JSON.stringify(loaded));
      assert.match(loaded.problem!, new RegExp(`${section}[.:]`));
      assert.match(loaded.problem!, section === 'requireHandoffOnEndSession' ? /counts as true/ : /refused with E030 CONFIG_INVALID/);
      if (section === 'requireHandoffOnEndSession') assert.equal(loaded.config.requireHandoffOnEndSession, true);
    });
  }

  it('a near miss of a restrictive key counts as that restriction on, whatever its value, and says which key it took it for', () => {
    const loaded = parseConfigText('{"requireHandoffOnEndsession": false, "passover": {}}');
    assert.equal(loaded.config.requireHandoffOnEndSession, true);
    assert.equal(loaded.config.brokenSections?.requireHandoffOnEndSession?.path, 'requireHandoffOnEndsession');
    assert.ok(loaded.config.brokenSections?.passOver, 'a misspelled passOver refuses passes (E030)');
    assert.match(loaded.problem!, /"requireHandoffOnEndsession" \(did you mean "requireHandoffOnEndSession"\?\).*counts as true/);
    assert.match(loaded.problem!, /"passover" \(did you mean "passOver"\?\).*refused with E030/);
    // A near miss of a key that only makes things convenient is still ignored.
    const convenient = parseConfigText('{"staleAfterHour": 3}');
    assert.equal(convenient.config.brokenSections, undefined);
    assert.match(convenient.problem!, /unknown key "staleAfterHour" \(did you mean "staleAfterHours"\?\), ignored/);
  });

  it('a file nested 5,000 deep: one clear problem (no stack overflow), restrictive sections fail closed', () => {
    const loaded = parseConfigText('{"passOver":' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) + '}');
    assert.match(loaded.problem!, /\.agentsync\.json nests objects or arrays more than 64 levels deep/);
    assert.equal(loaded.config.requireHandoffOnEndSession, true);
    assert.ok(loaded.config.brokenSections?.passOver);
  });

  it('the whole file is an array: reported, restrictive sections fail closed', () => {
    const loaded = parseConfigText('[]');
    assert.match(loaded.problem!, /\(root\): expected an object/);
    assert.equal(loaded.config.requireHandoffOnEndSession, true);
  });

  describe('fail closed through the dispatcher', () => {
    it('a broken passOver section refuses passes with E030 CONFIG_INVALID naming the key; other actions work', async () => {
      const ws = new TestWorkspace({
        config: '{"passOver": {"pairs": {"alice->bob": {"enabeld": false}}}}',
        handoffs: [handoffIn('queued')],
      });
      const r = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'bob', reason: 'code_review', summary: 'look' });
      assert.equal(r.ok, false);
      assert.equal(r.reason, 'CONFIG_INVALID');
      assert.equal(r.code, 'E030');
      assert.equal(r.key, 'passOver');
      assert.match(r.message!, /passOver\.pairs\.alice->bob: unknown field\(s\) "enabeld"/);
      assert.equal((await ws.dispatch({ action: 'listHandoffs' })).ok, true);
    });

    it('a broken agent list refuses requests that name agents (E030) instead of accepting any id', async () => {
      const ws = new TestWorkspace({ config: '{"agentCapabilities": {"codex": "code_patch"}}' });
      const r = await ws.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'typo-agent', owner_mode: 'single', to_agents: ['anyone'], summary: 's' },
      });
      assert.equal(r.reason, 'CONFIG_INVALID');
      assert.equal(r.key, 'agentCapabilities');
      assert.equal(fs.existsSync(ws.layout.handoffsFile) ? ws.storedHandoffs().length : 0, 0);
    });
  });

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
    assert.equal(knownAgents(defaultConfig()), null);
    const cfg = parseConfigText('{"agentCapabilities": {"codex": []}, "humans": ["alice"]}').config;
    assert.deepEqual([...knownAgents(cfg)!], ['codex', 'alice', 'human']);
  });

  describe('through the store', () => {
    it('a broken file is reported once, requests still work with the defaults, and a fix is picked up', async () => {
      const ws = new TestWorkspace({ config: '{"maxAttempts": "three", "humans": ["Alice Smith"]}', handoffs: [handoffIn('queued')] });
      // the broken humans list falls back to [] (fewer rights, never more): alice is nobody.
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

describe('the sync section (docs/contract.md §13)', () => {
  const parse = (sync: unknown) => parseConfigText(JSON.stringify({ sync }));

  it('is absent by default, and "sync": {} takes every default', () => {
    assert.equal(parseConfigText('{}').config.sync, undefined);
    assert.deepEqual(parse({}).config.sync, { remote: 'origin', ref: 'refs/agentsync/state', offline: 'refuse', interval_s: 30 });
  });

  it('takes a branch as the ref for hosts that refuse custom refs', () => {
    assert.equal(parse({ ref: 'refs/heads/agentsync-state' }).config.sync?.ref, 'refs/heads/agentsync-state');
  });

  it('fails closed on a URL as remote, a short ref name or an unknown offline mode, naming the key', () => {
    for (const bad of [
      { remote: 'ext::sh -c x' },
      { remote: 'https://example.com/r.git' },
      { ref: 'main' },
      { ref: 'refs/a/../b' },
      { offline: 'maybe' },
    ]) {
      const loaded = parse(bad);
      assert.ok(loaded.config.brokenSections?.sync, JSON.stringify(bad));
      assert.match(loaded.problem ?? '', /sync/);
      assert.match(loaded.problem ?? '', /writes are refused/);
    }
  });
});
