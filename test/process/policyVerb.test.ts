// `agentsync policy` and the fail-closed policy as a user meets them (docs/contract.md §6): the real CLI as a child process,
// .agentsync.json on disk, passes sent through `agentsync request`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { configureAgents, initWorkspace, runCliIn } from './processHarness';

const passRequest = JSON.stringify({ action: 'passOver', agent: 'alice', to: 'audit', reason: 'code_review', summary: 'review login' });

describe('agentsync policy (docs/contract.md §6)', function () {
  this.timeout(120_000);
  let ws: string;
  let configFile: string;

  beforeEach(() => {
    ws = initWorkspace('policy');
    configureAgents(ws);
    configFile = path.join(ws, '.agentsync.json');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('policy --help lists the subcommands and the keys; the global help lists policy', () => {
    const help = runCliIn(ws, ['policy', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^agentsync policy list \| set-pair <from> <to>/);
    for (const flag of [
      '--enabled',
      '--auto-return',
      '--auto-apply',
      '--require-user-approval',
      '--timeout-ms',
      '--max-chain-depth',
      '--notify-on-return',
      '--can-receive-passes',
    ])
      assert.match(help.stdout, new RegExp(`${flag} <value>`));
    assert.match(runCliIn(ws, ['--help']).stdout, /\n {2}policy +show or edit the pass-over policies/);
  });

  it('set-pair, set-default and set-subagent write the file; list prints the resolved policy and where each value comes from', () => {
    const before = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    for (const args of [
      ['set-pair', 'alice', 'audit', '--auto-return', 'true', '--timeout-ms', '60000'],
      ['set-default', '--max-chain-depth', '2'],
      ['set-subagent', 'tester', '--notify-on-return', 'only_issues'],
    ]) {
      const r = runCliIn(ws, ['policy', ...args]);
      assert.deepEqual([r.code, r.stderr], [0, ''], r.stdout);
      assert.match(r.stdout, /^set passOver\.(pairs\.alice->audit|defaults|subagents\.tester) in \.agentsync\.json/);
    }
    const after = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    assert.deepEqual({ ...after, passOver: undefined }, { ...before, passOver: undefined }, 'every other key is kept');
    assert.deepEqual(after.passOver, {
      pairs: { 'alice->audit': { auto_return: true, timeout_ms: 60000 } },
      defaults: { max_chain_depth: 2 },
      subagents: { tester: { notify_on_return: 'only_issues' } },
    });

    const text = runCliIn(ws, ['policy', 'list']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^pair alice->audit\n.*\n {2}auto_return +true +passOver\.pairs\.alice->audit$/m);
    assert.match(text.stdout, /^ {2}max_chain_depth +2 +passOver\.defaults$/m);
    const json = JSON.parse(runCliIn(ws, ['--json', 'policy', 'list']).stdout) as {
      ok: boolean;
      data: { policies: { scope: string; name: string; policy: Record<string, unknown>; sources: Record<string, string> }[] };
    };
    assert.equal(json.ok, true);
    assert.deepEqual(
      json.data.policies.map((p) => [p.scope, p.name, p.policy.timeout_ms, p.policy.max_chain_depth, p.policy.notify_on_return]),
      [
        ['defaults', 'defaults', 1_800_000, 2, true],
        ['subagent', 'tester', 1_800_000, 2, 'only_issues'],
        ['pair', 'alice->audit', 60_000, 2, true],
      ],
    );

    // The policy written by the CLI is the one a pass gets.
    const pass = JSON.parse(runCliIn(ws, ['request', '-'], passRequest).stdout) as {
      data: { handoff: { policy: Record<string, unknown> } };
    };
    assert.deepEqual([pass.data.handoff.policy.timeout_ms, pass.data.handoff.policy.auto_return], [60000, true]);
  });

  it('an edit the file check would refuse is not written: exit 1, the key path and what was expected; the file is unchanged', () => {
    const bytes = fs.readFileSync(configFile);
    for (const [args, message] of [
      [['set-pair', 'alice', 'audit', '--timeout-ms', 'soon'], /passOver\.pairs\.alice->audit\.timeout_ms: .*expected number/],
      [
        ['set-pair', 'alice', 'audti', '--enabled', 'false'],
        /passOver\.pairs\.alice->audti: "audti" is not a configured agent \(did you mean "audit"\?\)/,
      ],
      [
        ['set-default', '--auto-apply', 'true', '--require-user-approval', 'true'],
        /PREFERENCE_CONFLICT: .*passOver\.defaults: auto_apply is true/,
      ],
    ] as const) {
      const r = runCliIn(ws, ['policy', ...args]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Nothing was written; the file is unchanged\./);
      assert.deepEqual(fs.readFileSync(configFile), bytes);
    }
    const json = JSON.parse(runCliIn(ws, ['--json', 'policy', 'set-default', '--max-chain-depth', '0']).stdout) as Record<string, unknown>;
    assert.deepEqual([json.ok, json.reason, json.code, json.path], [false, 'CONFIG_INVALID', 'E030', 'passOver.defaults.max_chain_depth']);
    const usage = runCliIn(ws, ['policy', 'set-pair', 'alice', 'audit']);
    assert.equal(usage.code, 2, 'no key given is a usage error');
    assert.match(usage.stderr, /give at least one key to set/);
    assert.deepEqual(fs.readFileSync(configFile), bytes);
  });

  it('a broken policy file refuses every pass through `agentsync request` with the key named; fixed (policy reset), passes work again', () => {
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(configFile, JSON.stringify({ ...config, passOver: { pairs: { 'scout->audit': { enabeld: false } } } }, null, 2));
    for (const [agent, to] of [
      ['alice', 'audit'],
      ['bob', 'tester'],
    ]) {
      const r = runCliIn(ws, ['request', '-'], JSON.stringify({ action: 'passOver', agent, to, reason: 'code_review', summary: 's' }));
      assert.equal(r.code, 1);
      const body = JSON.parse(r.stdout) as Record<string, unknown>;
      assert.deepEqual(
        [body.reason, body.code, body.key, body.path],
        ['CONFIG_INVALID', 'E030', 'passOver', 'passOver.pairs.scout->audit.enabeld'],
      );
      assert.match(String(body.message), /unknown field\(s\) "enabeld" \(did you mean "enabled"\?\)/);
    }
    const list = runCliIn(ws, ['request', '-'], '{"action":"listHandoffs"}');
    assert.equal(list.code, 0, 'the rest of AgentSync keeps working');
    assert.equal(runCliIn(ws, ['policy', 'list']).code, 1, 'list refuses a broken section too');

    const reset = runCliIn(ws, ['policy', 'reset', 'scout->audit']);
    assert.equal(reset.code, 0, reset.stderr);
    const ok = runCliIn(ws, ['request', '-'], passRequest);
    assert.equal(ok.code, 0, ok.stdout);
  });

  it('reset: one pair, --defaults, --subagent, and all of passOver', () => {
    runCliIn(ws, ['policy', 'set-pair', 'alice', 'audit', '--auto-return', 'true']);
    runCliIn(ws, ['policy', 'set-default', '--auto-return', 'true']);
    runCliIn(ws, ['policy', 'set-subagent', 'audit', '--timeout-ms', '5000']);
    const passOver = () => (JSON.parse(fs.readFileSync(configFile, 'utf8')) as { passOver?: unknown }).passOver;
    assert.equal(
      runCliIn(ws, ['policy', 'reset', 'alice', 'audit']).stdout.trim(),
      'removed passOver.pairs.alice->audit in .agentsync.json',
    );
    assert.equal(
      runCliIn(ws, ['policy', 'reset', 'alice', 'audit']).stdout.trim(),
      'nothing to reset: passOver.pairs.alice->audit is not set',
    );
    runCliIn(ws, ['policy', 'reset', '--subagent', 'audit']);
    assert.deepEqual(passOver(), { defaults: { auto_return: true } });
    runCliIn(ws, ['policy', 'reset', '--defaults']);
    assert.deepEqual(passOver(), {});
    runCliIn(ws, ['policy', 'set-default', '--auto-return', 'true']);
    assert.equal(runCliIn(ws, ['policy', 'reset']).code, 0);
    assert.equal(passOver(), undefined);
  });
});
