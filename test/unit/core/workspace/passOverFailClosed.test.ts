// A broken passOver section or agent list fails closed (docs/agentsync-documentation.md, "Configuration"): every
// pass is refused with E030 CONFIG_INVALID (E031 PREFERENCE_CONFLICT for contradictory keys) naming the key path,
// never served by the permissive built-ins; the rest of AgentSync keeps working; the fixed file lets passes through.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { parseConfigText } from '../../../../src/core/workspace/configLoader';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const AGENTS = { alice: ['code_patch'], audit: ['code_review'], scout: ['research'], tester: ['test_authoring'] };
const good = { agentCapabilities: AGENTS, passOver: { pairs: { 'alice->audit': { auto_return: true } } } };

// [what, the file, code, key, path, a fragment of the message saying what was expected]
const BROKEN: [string, unknown, string, string, string, RegExp][] = [
  [
    'a misspelled key in defaults',
    { ...good, passOver: { defaults: { enabeld: false } } },
    'E030',
    'passOver',
    'passOver.defaults.enabeld',
    /unknown field\(s\) "enabeld" \(did you mean "enabled"\?\)/,
  ],
  [
    'a wrong type in a pair',
    { ...good, passOver: { pairs: { 'alice->audit': { timeout_ms: '60s' } } } },
    'E030',
    'passOver',
    'passOver.pairs.alice->audit.timeout_ms',
    /expected number/,
  ],
  [
    'a wrong type in a subagent',
    { ...good, passOver: { subagents: { audit: { can_receive_passes: 'no' } } } },
    'E030',
    'passOver',
    'passOver.subagents.audit.can_receive_passes',
    /expected boolean/,
  ],
  [
    'a value out of range',
    { ...good, passOver: { defaults: { max_chain_depth: 0 } } },
    'E030',
    'passOver',
    'passOver.defaults.max_chain_depth',
    />=1/,
  ],
  [
    'an unknown notify_on_return mode',
    { ...good, passOver: { defaults: { notify_on_return: 'sometimes' } } },
    'E030',
    'passOver',
    'passOver.defaults.notify_on_return',
    /notify_on_return/,
  ],
  [
    'a misspelled section of passOver',
    { ...good, passOver: { pair: { 'alice->audit': { enabled: false } } } },
    'E030',
    'passOver',
    'passOver.pair',
    /did you mean "pairs"/,
  ],
  [
    'a pair naming an unknown agent (the real pair would stay unrestricted)',
    { ...good, passOver: { pairs: { 'scout->audti': { enabled: false } } } },
    'E030',
    'passOver',
    'passOver.pairs.scout->audti',
    /"audti" is not a configured agent \(did you mean "audit"\?\); expected one of alice, audit, scout, tester/,
  ],
  [
    'a subagent that is not a configured agent',
    { ...good, passOver: { subagents: { testr: { can_receive_passes: false } } } },
    'E030',
    'passOver',
    'passOver.subagents.testr',
    /"testr" is not a configured agent \(did you mean "tester"\?\)/,
  ],
  [
    'a broken agent list',
    { ...good, agentCapabilities: { ...AGENTS, audit: 'code_review' } },
    'E030',
    'agentCapabilities',
    'agentCapabilities.audit',
    /expected array/,
  ],
  [
    'auto_apply with require_user_approval',
    { ...good, passOver: { defaults: { auto_apply: true, require_user_approval: true } } },
    'E031',
    'passOver',
    'passOver.defaults',
    /auto_apply is true .* but require_user_approval is true/,
  ],
  [
    'a disabled pair with auto_return',
    { ...good, passOver: { pairs: { 'scout->tester': { enabled: false, auto_return: true } } } },
    'E031',
    'passOver',
    'passOver.pairs.scout->tester',
    /enabled is false \(no pass from scout to tester\) but auto_return is true/,
  ],
  [
    'an enabled pair to a subagent that takes no passes',
    { ...good, passOver: { pairs: { 'scout->audit': { enabled: true } }, subagents: { audit: { can_receive_passes: false } } } },
    'E031',
    'passOver',
    'passOver.pairs.scout->audit',
    /passOver\.subagents\.audit\.can_receive_passes is false/,
  ],
  ['a file that is not JSON', '{ "passOver": { ', 'E030', 'passOver', '(file)', /not valid JSON/],
];

const REASON = { E030: 'CONFIG_INVALID', E031: 'PREFERENCE_CONFLICT' } as Record<string, string>;

describe('pass-over fails closed on a broken or contradictory policy (through the dispatcher)', () => {
  after(removeTempDirs);

  for (const [what, file, code, key, path, expected] of BROKEN) {
    it(`${what}: every pass refused (${code}, ${path}); other actions work; the fixed file lets passes through`, async () => {
      const ws = new TestWorkspace({ config: file });
      for (const [from, to] of [
        ['alice', 'audit'],
        ['scout', 'tester'],
        ['tester', 'alice'],
      ]) {
        const r = await ws.dispatch({ action: 'passOver', agent: from, to, reason: 'code_review', summary: 'look' });
        assert.deepEqual([r.ok, r.reason, r.code, r.key, r.path], [false, REASON[code], code, key, path], JSON.stringify(r));
        assert.match(String(r.message), expected);
        assert.match(String(r.message), /fix it in \.agentsync\.json and retry\. Nothing was changed\./);
      }
      assert.equal(ws.readText(ws.layout.handoffsFile), null, 'no pass was stored');
      assert.equal((await ws.dispatch({ action: 'listHandoffs' })).ok, true, 'the rest of AgentSync keeps working');

      ws.writeConfig(good);
      const later = new Date(Date.now() + 5_000);
      fs.utimesSync(ws.layout.configFile, later, later); // a distinct mtime even on coarse clocks
      const fixed = await ws.dispatch({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'code_review', summary: 'look' });
      assert.equal(fixed.ok, true, JSON.stringify(fixed));
    });
  }

  it('the loader reports a contradiction once, naming E031 and the key path', () => {
    const loaded = parseConfigText(JSON.stringify(BROKEN.find((b) => b[2] === 'E031')![1]));
    assert.match(
      loaded.problem!,
      /passOver\.defaults: auto_apply is true .*\(pass-overs are refused with E031 PREFERENCE_CONFLICT until you fix it\)/,
    );
  });

  it('without an agent list, pairs may name any agent (nothing to check them against)', () => {
    const loaded = parseConfigText(JSON.stringify({ passOver: { pairs: { 'scout->audti': { enabled: false } } } }));
    assert.equal(loaded.problem, null);
  });
});
