// Each of the eight pass-over policy keys does something a user can observe (docs/agentsync-documentation.md,
// "Pass-over policies"): one row per key, run through the real dispatcher with the key on and with it off.
// Then the resolution order (override > pair > subagent > defaults > built-in) and what an override may not do.
import * as assert from 'node:assert/strict';
import type { PassOverPolicy } from '../../../../src/core/domain/configSchema';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import type { PolicyKey } from '../../../../src/core/domain/passOverPolicy';
import type { RequestResponse } from '../../../../src/core/requests/requestDispatcher';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

const clean = { status: 'complete', decision: 'PROCEED', context_summary: 'auth reviewed, all good', findings: {}, issues: [] };
const withIssues = { ...clean, issues: ['token refresh races'] };

async function pass(ws: TestWorkspace, from = 'alice', to = 'audit', extra: Record<string, unknown> = {}): Promise<RequestResponse> {
  return ws.dispatch({ action: 'passOver', agent: from, to, reason: 'code_review', summary: `${from} to ${to}`, ...extra });
}

/** alice passes to audit and audit claims it; the claimed record. */
async function claimed(ws: TestWorkspace, extra: Record<string, unknown> = {}): Promise<Handoff> {
  const p = await pass(ws, 'alice', 'audit', extra);
  assert.equal(p.ok, true, JSON.stringify(p));
  const c = await ws.dispatch({ action: 'claimHandoff', handoffId: (p.data!.handoff as Handoff).handoff_id, agent: 'audit' });
  assert.equal(c.ok, true, JSON.stringify(c));
  return c.data!.handoff as Handoff;
}

/** alice → audit, audit returns with `report`; the answer of the return and the passed handoff's id. */
async function returned(ws: TestWorkspace, report: object = clean, extra: Record<string, unknown> = {}) {
  const h = await claimed(ws, extra);
  const r = await ws.dispatch({ action: 'returnHandoff', handoffId: h.handoff_id, agent: 'audit', result: report });
  assert.equal(r.ok, true, JSON.stringify(r));
  return { r, passedId: h.handoff_id, back: r.data!.returned as Handoff };
}

const outcome = (r: RequestResponse) => (r.ok ? 'accepted' : [r.code, r.reason].filter(Boolean).join(' '));

interface Row {
  key: PolicyKey;
  /** Where the key is set; a pair is `alice->audit`, a subagent is `audit`. */
  layer: 'pair' | 'subagent';
  on: PassOverPolicy[PolicyKey];
  /** undefined: the key is not set, so the built-in value applies. */
  off: PassOverPolicy[PolicyKey] | undefined;
  observe(ws: TestWorkspace): Promise<unknown>;
  whenOn: unknown;
  whenOff: unknown;
}

const ROWS: Row[] = [
  {
    key: 'enabled',
    layer: 'pair',
    on: true,
    off: false,
    observe: async (ws) => outcome(await pass(ws)),
    whenOn: 'accepted',
    whenOff: 'E004 DISABLED_PAIR',
  },
  {
    key: 'auto_return',
    layer: 'pair',
    on: true,
    off: false,
    observe: async (ws) => {
      const { back } = await returned(ws);
      return [back.status, back.claimed_by ?? null];
    },
    whenOn: ['ready_for_review', 'alice'],
    whenOff: ['queued', null],
  },
  {
    key: 'auto_apply',
    layer: 'pair',
    on: true,
    off: false,
    observe: async (ws) => {
      const { r, passedId } = await returned(ws);
      const h = ws.stored(passedId);
      return [h.status, (r.data!.handoff as Handoff).status, h.state_history.slice(-2).map((e) => `${e.agent}:${e.status}`)];
    },
    whenOn: ['merged', 'merged', ['agentsync:approved', 'agentsync:merged']],
    whenOff: ['ready_for_review', 'ready_for_review', ['audit:in_progress', 'audit:ready_for_review']],
  },
  {
    key: 'require_user_approval',
    layer: 'pair',
    on: true,
    off: false,
    observe: async (ws) => {
      const { passedId } = await returned(ws);
      return outcome(await ws.dispatch({ action: 'transitionHandoff', handoffId: passedId, agent: 'alice', to: 'approved' }));
    },
    whenOn: 'not_assigned',
    whenOff: 'accepted',
  },
  {
    key: 'timeout_ms',
    layer: 'pair',
    on: 5_000,
    off: undefined,
    observe: async (ws) => {
      const h = await claimed(ws);
      return Date.parse(h.lease_expires_at!) - Date.parse(h.claimed_at!);
    },
    whenOn: 5_000,
    whenOff: 30 * 60_000,
  },
  {
    key: 'max_chain_depth',
    layer: 'pair',
    on: 1,
    off: undefined,
    observe: async (ws) => {
      // alice → audit → scout is depth 2; the audit → scout hop resolves the policy of its own pair, so set it there too.
      ws.writeConfig(JSON.parse(ws.readText(ws.layout.configFile)!.replace('"alice->audit"', '"audit->scout"')) as unknown);
      const h = await claimed(ws);
      return outcome(await pass(ws, 'audit', 'scout', { handoffId: h.handoff_id }));
    },
    whenOn: 'E002 CHAIN_DEPTH_EXCEEDED',
    whenOff: 'accepted',
  },
  {
    key: 'notify_on_return',
    layer: 'pair',
    on: true,
    off: false,
    observe: async (ws) => {
      const { r, back } = await returned(ws);
      const marker = r.data!.notify as { agent: string; handoff: string } | null;
      return [marker && marker.handoff === back.handoff_id ? marker.agent : marker, ws.stored(back.handoff_id).notify ?? null];
    },
    whenOn: ['alice', { agent: 'alice', handoff: 'HO-20260310-002' }],
    whenOff: [null, null],
  },
  {
    key: 'can_receive_passes',
    layer: 'subagent',
    on: true,
    off: false,
    observe: async (ws) => outcome(await pass(ws)),
    whenOn: 'accepted',
    whenOff: 'E013 PERMISSION_DENIED',
  },
];

function configWith(row: Row, value: unknown): unknown {
  if (value === undefined) return {};
  const layer = { [row.key]: value };
  return { passOver: row.layer === 'pair' ? { pairs: { 'alice->audit': layer } } : { subagents: { audit: layer } } };
}

describe('pass-over policy keys: each one observable, on and off (one row per key)', () => {
  after(removeTempDirs);

  it('the table has one row per policy key', () => {
    assert.deepEqual(
      ROWS.map((r) => r.key),
      [
        'enabled',
        'auto_return',
        'auto_apply',
        'require_user_approval',
        'timeout_ms',
        'max_chain_depth',
        'notify_on_return',
        'can_receive_passes',
      ],
    );
  });

  for (const row of ROWS) {
    for (const [state, value, expected] of [
      ['on', row.on, row.whenOn],
      ['off', row.off, row.whenOff],
    ] as const) {
      it(`${row.key} ${state} (${row.layer} ${JSON.stringify(value ?? 'built-in')}) → ${JSON.stringify(expected)}`, async () => {
        const ws = new TestWorkspace({ config: configWith(row, value) });
        assert.deepEqual(await row.observe(ws), expected);
      });
    }
  }
});

describe('notify_on_return and auto_apply: which reports they act on', () => {
  after(removeTempDirs);

  const notifyCases: [PassOverPolicy['notify_on_return'], string, object, boolean][] = [
    ['always', 'a clean report', clean, true],
    ['never', 'a report with issues', withIssues, false],
    ['only_issues', 'a clean report', clean, false],
    ['only_issues', 'a report with issues', withIssues, true],
    ['only_issues', 'a partial report', { ...clean, status: 'partial' }, true],
    [
      'only_issues',
      'a high finding',
      { ...clean, artifacts: { findings: [{ severity: 'high', category: 'auth', message: 'race' }] } },
      true,
    ],
    [
      'only_issues',
      'an info finding',
      { ...clean, artifacts: { findings: [{ severity: 'info', category: 'style', message: 'naming' }] } },
      false,
    ],
  ];
  for (const [mode, what, report, notified] of notifyCases) {
    it(`notify_on_return ${JSON.stringify(mode)} with ${what} → ${notified ? 'a marker' : 'none'}`, async () => {
      const ws = new TestWorkspace({ config: { passOver: { defaults: { notify_on_return: mode } } } });
      const { r } = await returned(ws, report);
      assert.equal(r.data!.notify !== null, notified, JSON.stringify(r.data!.notify));
    });
  }

  const applyCases: [string, object, Record<string, unknown>][] = [
    ['a report with issues', withIssues, {}],
    ['a partial report', { ...clean, status: 'partial' }, {}],
    ['a critical finding', { ...clean, artifacts: { findings: [{ severity: 'critical', category: 'auth', message: 'leak' }] } }, {}],
    ['require_user_approval from another layer', clean, { defaults: { require_user_approval: true } }],
  ];
  for (const [what, report, extraLayers] of applyCases) {
    it(`auto_apply leaves the work for review on ${what}`, async () => {
      const ws = new TestWorkspace({ config: { passOver: { ...extraLayers, pairs: { 'alice->audit': { auto_apply: true } } } } });
      const { passedId } = await returned(ws, report);
      assert.equal(ws.stored(passedId).status, 'ready_for_review');
    });
  }

  it('auto_apply writes the merge to the decisions log and the audit, by agentsync', async () => {
    const ws = new TestWorkspace({ config: { passOver: { pairs: { 'alice->audit': { auto_apply: true } } } } });
    const { r, passedId } = await returned(ws);
    assert.deepEqual(
      ws.auditFor(r.request_id).map((e) => [e.agent, e.to_status]),
      [
        ['audit', 'ready_for_review'],
        ['audit', 'queued'],
        ['agentsync', 'approved'],
        ['agentsync', 'merged'],
      ],
    );
    assert.match(ws.readText(ws.layout.decisionsFile) ?? '', new RegExp(passedId));
  });
});

describe('policy resolution through the dispatcher', () => {
  after(removeTempDirs);

  // Which layers set timeout_ms (defaults 1000, subagent 2000, pair 3000, override 4000) → the stored value.
  const layers: [string, Record<string, unknown>, PassOverPolicy | undefined, number][] = [
    ['nothing: built-in', {}, undefined, 1_800_000],
    ['defaults', { defaults: { timeout_ms: 1_000 } }, undefined, 1_000],
    ['subagent over defaults', { defaults: { timeout_ms: 1_000 }, subagents: { audit: { timeout_ms: 2_000 } } }, undefined, 2_000],
    [
      'pair over subagent',
      { defaults: { timeout_ms: 1_000 }, subagents: { audit: { timeout_ms: 2_000 } }, pairs: { 'alice->audit': { timeout_ms: 3_000 } } },
      undefined,
      3_000,
    ],
    [
      'override over pair',
      { subagents: { audit: { timeout_ms: 2_000 } }, pairs: { 'alice->audit': { timeout_ms: 3_000 } } },
      { timeout_ms: 4_000 },
      4_000,
    ],
  ];
  for (const [what, passOver, override, stored] of layers) {
    it(`${what} → timeout_ms ${stored} stored on the handoff`, async () => {
      const ws = new TestWorkspace({ config: { passOver } });
      const r = await pass(ws, 'alice', 'audit', override ? { override } : {});
      assert.equal(ws.stored((r.data!.handoff as Handoff).handoff_id).policy?.timeout_ms, stored);
    });
  }

  it('an override tightens: enabled false is E004 naming the override; a lower max_chain_depth applies', async () => {
    const ws = new TestWorkspace();
    const r = await pass(ws, 'alice', 'audit', { override: { enabled: false } });
    assert.deepEqual([r.code, r.source], ['E004', 'override.enabled']);
    const ok = await pass(ws, 'alice', 'audit', { override: { max_chain_depth: 1 } });
    assert.equal(ws.stored((ok.data!.handoff as Handoff).handoff_id).policy?.max_chain_depth, 1);
  });

  // [the file's policy, the override that would loosen it, the path of what it would lift]
  const loosening: [Record<string, unknown>, PassOverPolicy, string][] = [
    [{ pairs: { 'alice->audit': { enabled: false } } }, { enabled: true }, 'passOver.pairs.alice->audit.enabled'],
    [{ subagents: { audit: { can_receive_passes: false } } }, { can_receive_passes: true }, 'passOver.subagents.audit.can_receive_passes'],
    [{ defaults: { require_user_approval: true } }, { require_user_approval: false }, 'passOver.defaults.require_user_approval'],
    [{}, { max_chain_depth: 5 }, 'the built-in max_chain_depth'],
  ];
  for (const [passOver, override, lifted] of loosening) {
    it(`an override may not loosen ${lifted}: E031 PREFERENCE_CONFLICT, nothing stored`, async () => {
      const ws = new TestWorkspace({ config: { passOver } });
      const r = await pass(ws, 'alice', 'audit', { override });
      assert.deepEqual(
        [r.ok, r.reason, r.code, r.path, r.conflicts_with],
        [false, 'PREFERENCE_CONFLICT', 'E031', `override.${Object.keys(override)[0]}`, lifted],
      );
      assert.equal(ws.readText(ws.layout.handoffsFile), null);
    });
  }

  it('E004 names the layer that disabled the pass (here the defaults, not a pair)', async () => {
    const ws = new TestWorkspace({ config: { passOver: { defaults: { enabled: false }, pairs: { 'alice->audit': { enabled: true } } } } });
    assert.equal(outcome(await pass(ws, 'alice', 'audit')), 'accepted');
    const r = await pass(ws, 'alice', 'scout');
    assert.equal(r.code, 'E004');
    assert.match(String(r.message), /disabled by passOver\.defaults\.enabled \(false\)/);
  });
});
