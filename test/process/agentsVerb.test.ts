// `agentsync agents list | add | remove` as a real process (docs/contract.md §7): the agent list of .agentsync.json,
// written atomically with every other key kept; remove refuses an agent that work still depends on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCliIn, runCliSync, tempWorkspace } from './processHarness';

describe('agentsync agents (process)', function () {
  this.timeout(120_000);
  let ws: string;
  let file: string;
  beforeEach(() => {
    ws = tempWorkspace('agents');
    runCliSync(['--dir', ws, 'init']);
    file = path.join(ws, '.agentsync.json');
    const config = { staleAfterHours: 12, humans: ['dana'], agentCapabilities: { codex: ['code_patch'], claude: ['risk_decision'] } };
    fs.writeFileSync(file, JSON.stringify(config, null, 2) + '\n');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('add and list: a new agent with its capabilities, every other key kept; a bad id changes nothing', () => {
    const added = runCliIn(ws, ['agents', 'add', 'Gemini', '--caps', 'research,docs']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /gemini: research, docs/);
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(config.agentCapabilities, { codex: ['code_patch'], claude: ['risk_decision'], gemini: ['research', 'docs'] });
    assert.equal(config.staleAfterHours, 12);
    assert.deepEqual(config.humans, ['dana']);
    const list = runCliIn(ws, ['--json', 'agents', 'list']);
    const agents = (JSON.parse(list.stdout) as { data: { agents: { agent: string }[] } }).data.agents.map((a) => a.agent);
    assert.deepEqual(agents, ['codex', 'claude', 'gemini']);
    const before = fs.readFileSync(file);
    const bad = runCliIn(ws, ['agents', 'add', 'bad/id!']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /is not an agent id/);
    assert.deepEqual(fs.readFileSync(file), before);
  });

  it('remove refuses an agent holding a claim or standing in an open chain, and removes a free one', () => {
    const id = runCliIn(ws, ['create', '--from', 'codex', '--to', 'claude', '--summary', 'Fix it', '--quiet']).stdout.trim();
    assert.equal(runCliIn(ws, ['claim', id, '--agent', 'claude']).code, 0);
    const before = fs.readFileSync(file);
    const held = runCliIn(ws, ['agents', 'remove', 'claude']);
    assert.equal(held.code, 1);
    assert.match(held.stderr, new RegExp(`claude holds ${id}`));
    assert.equal(runCliIn(ws, ['agents', 'add', 'audit', '--caps', 'pr_review']).code, 0);
    assert.equal(runCliIn(ws, ['pass', id, '--agent', 'claude', '--to', 'audit', '--reason', 'review', '--summary', 'Review']).code, 0);
    const chained = runCliIn(ws, ['--json', 'agents', 'remove', 'audit']);
    assert.equal(chained.code, 1);
    const body = JSON.parse(chained.stdout) as { reason: string; chains: string[] };
    assert.equal(body.reason, 'invalid_request');
    assert.equal(body.chains.length, 1);
    assert.equal(runCliIn(ws, ['agents', 'add', 'spare']).code, 0);
    const removed = runCliIn(ws, ['agents', 'remove', 'spare']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { agentCapabilities: object }).agentCapabilities), [
      'codex',
      'claude',
      'audit',
    ]);
    assert.notDeepEqual(fs.readFileSync(file), before);
  });
});
