// Request validation (docs/contract.md §8): unknown fields, wrong types and missing fields get invalid_request naming the
// field, with a message that says what to do; nothing changes. Broken text and unknown actions are answered too.
// A completion report (`result`) that does not parse gets the protocol's E012 / E021 instead: completionReport.test.ts.
import { strict as assert } from 'node:assert';
import { handoffIn } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const ID = 'HO-20260221-001';

describe('request parameters (docs/contract.md §8)', () => {
  after(removeTempDirs);

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    // unknown fields
    [
      'claimHandoff with an unknown field',
      { action: 'claimHandoff', handoffId: ID, agent: 'claude', force: true },
      'force',
      /unknown field\(s\) "force"/,
    ],
    [
      'transitionHandoff with a misspelled field',
      { action: 'transitionHandoff', handoffId: ID, agent: 'claude', status: 'blocked', to: 'blocked' },
      'status',
      /unknown field\(s\) "status"/,
    ],
    [
      'createHandoff with an unknown handoff field',
      {
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 's', assignee: 'x' },
      },
      'handoff.assignee',
      /handoff: unknown field\(s\) "assignee"/,
    ],
    ['listHandoffs with an unknown field', { action: 'listHandoffs', owner: 'claude' }, 'owner', /unknown field\(s\) "owner"/],
    // wrong types
    ['handoffId as a number', { action: 'claimHandoff', handoffId: 7, agent: 'claude' }, 'handoffId', /handoffId: /],
    ['agent as a list', { action: 'claimHandoff', handoffId: ID, agent: ['claude'] }, 'agent', /agent: /],
    [
      'expected_rev as a string',
      { action: 'claimHandoff', handoffId: ID, agent: 'claude', expected_rev: '5' },
      'expected_rev',
      /expected_rev: /,
    ],
    [
      'expected_rev negative',
      { action: 'claimHandoff', handoffId: ID, agent: 'claude', expected_rev: -1 },
      'expected_rev',
      /expected_rev: /,
    ],
    ['to outside the lifecycle', { action: 'transitionHandoff', handoffId: ID, agent: 'claude', to: 'done' }, 'to', /to: /],
    [
      'owner_mode unknown',
      { action: 'createHandoff', handoff: { from_agent: 'codex', owner_mode: 'team', to_agents: ['claude'], summary: 's' } },
      'handoff.owner_mode',
      /handoff\.owner_mode: /,
    ],
    [
      'an absolute file path',
      {
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 's', files: ['/etc/passwd'] },
      },
      'handoff.files.0',
      /is absolute/,
    ],
    [
      'a file path escaping the workspace',
      {
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 's', files: ['../x'] },
      },
      'handoff.files.0',
      /contains "\.\."/,
    ],
    [
      'an over-long summary',
      {
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 's'.repeat(2_001) },
      },
      'handoff.summary',
      /handoff\.summary: /,
    ],
    [
      'a blank summary',
      { action: 'createHandoff', handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: '   ' } },
      'handoff.summary',
      /summary must not be empty/,
    ],
    ['listHandoffs status not a status', { action: 'listHandoffs', status: 'open' }, 'status', /status: /],
    [
      'a request_id with a slash',
      { action: 'listHandoffs', request_id: '../evil' },
      'request_id',
      /request_id: .*request_id is 1-128 letters/,
    ],
    // missing fields
    ['claimHandoff without agent', { action: 'claimHandoff', handoffId: ID }, 'agent', /agent: /],
    ['claimHandoff without handoffId', { action: 'claimHandoff', agent: 'claude' }, 'handoffId', /handoffId \(or handoff_id\) is required/],
    ['transitionHandoff without to', { action: 'transitionHandoff', handoffId: ID, agent: 'claude' }, 'to', /to: /],
    ['createHandoff without handoff', { action: 'createHandoff' }, 'handoff', /handoff: /],
    [
      'createHandoff without summary',
      { action: 'createHandoff', handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'] } },
      'handoff.summary',
      /handoff\.summary: /,
    ],
    [
      'createHandoff without from_agent',
      { action: 'createHandoff', handoff: { owner_mode: 'single', to_agents: ['claude'], summary: 's' } },
      'handoff.from_agent',
      /handoff\.from_agent: /,
    ],
  ];

  for (const [what, request, field, message] of cases) {
    it(`${what} → invalid_request naming ${field}`, async () => {
      const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
      const bytes = ws.storeBytes();
      const res = await ws.dispatch(request);
      assert.equal(res.ok, false, JSON.stringify(res));
      assert.equal(res.reason, 'invalid_request', JSON.stringify(res));
      assert.equal(res.field, field, JSON.stringify(res));
      assert.match(res.message!, message);
      assert.equal(res.action, request.action);
      assert.equal(typeof res.request_id, 'string');
      assert.deepEqual(ws.storeBytes(), bytes, 'nothing changed');
    });
  }

  it('the refusal is answered with the request_id given and audited as refused', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('in_progress')] });
    const res = await ws.dispatch({ action: 'claimHandoff', request_id: 'bad-1', handoffId: ID });
    assert.equal(res.request_id, 'bad-1');
    const audit = ws.auditFor('bad-1');
    assert.equal(audit.length, 1);
    assert.deepEqual([audit[0].refused, audit[0].reason, audit[0].action], [true, 'invalid_request', 'claimHandoff']);
  });

  it('handoff_id is accepted in place of handoffId', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    const res = await ws.dispatch({ action: 'claimHandoff', handoff_id: ID, agent: 'claude' });
    assert.equal(res.ok, true, JSON.stringify(res));
  });

  it('not an object, no action, an unknown action: each answered, nothing changes', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    const bytes = ws.storeBytes();
    for (const raw of [null, 42, 'claim', [{ action: 'listHandoffs' }]]) {
      const res = await ws.dispatcher.dispatch(raw);
      assert.deepEqual([res.ok, res.reason, res.action], [false, 'invalid_request', null]);
    }
    const noAction = await ws.dispatch({ handoffId: ID });
    assert.deepEqual([noAction.reason, noAction.field], ['invalid_request', 'action']);
    const unknown = await ws.dispatch({ action: 'deleteEverything' });
    assert.equal(unknown.reason, 'unknown_action');
    assert.ok((unknown.actions as string[]).includes('claimHandoff'));
    assert.match(unknown.message!, /Unknown action "deleteEverything"\. Actions: .*createHandoff/);
    assert.deepEqual(ws.storeBytes(), bytes);
  });

  it('dispatchText: broken JSON gets invalid_json; over-size text is refused before parsing', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    const bytes = ws.storeBytes();
    const broken = await ws.dispatcher.dispatchText('{"action": "claimHandoff",');
    assert.equal(broken.reason, 'invalid_json');
    assert.match(broken.message!, /not valid JSON/);
    const huge = await ws.dispatcher.dispatchText(`{"action":"listHandoffs","pad":"${'x'.repeat(1024 * 1024)}"}`);
    assert.equal(huge.reason, 'too_large');
    const fine = await ws.dispatcher.dispatchText(JSON.stringify({ action: 'claimHandoff', handoffId: ID, agent: 'Claude' }));
    assert.equal(fine.ok, true, JSON.stringify(fine));
    assert.notDeepEqual(ws.storeBytes(), bytes);
  });

  it('the response envelope has the contract fields (docs/contract.md §8)', async () => {
    const ws = new TestWorkspace({ handoffs: [handoffIn('queued')] });
    const ok = await ws.dispatcher.dispatch({ action: 'listHandoffs', request_id: 'env-1' }, { requestFile: 'mine.json' });
    assert.deepEqual(Object.keys(ok).sort(), ['action', 'data', 'ok', 'request_file', 'request_id', 'timestamp']);
    assert.equal(ok.request_file, 'mine.json');
    assert.equal((ok.data as { count: number }).count, 1);
    assert.ok(!Number.isNaN(Date.parse(ok.timestamp)));
    const refused = await ws.dispatch({ action: 'claimHandoff', handoffId: ID, agent: 'mallory' });
    for (const key of ['ok', 'action', 'request_id', 'timestamp', 'reason', 'message']) assert.ok(key in refused, key);
    assert.equal(refused.data, undefined);
  });
});
