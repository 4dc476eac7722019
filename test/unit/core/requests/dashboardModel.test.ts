// The dashboard's model (core/domain/dashboardCards.ts, core/requests/dashboardModel.ts): the tree's grouping
// as cards, the buttons by status, sessions,
// leases and the last health from state.json, and refusals kept per card.
import * as assert from 'node:assert/strict';
import { defaultConfig } from '../../../../src/core/domain/configSchema';
import { cardKey } from '../../../../src/core/domain/dashboardCards';
import { MAX_SKIP_REASON, skipReason } from '../../../../src/core/domain/skipReason';
import { MOVES } from '../../../../src/core/requests/catalog';
import { DASHBOARD_MOVES, dashboardMovesFor } from '../../../../src/core/requests/catalog/dashboardMoves';
import { dashboardModel, type DashboardInput } from '../../../../src/core/requests/dashboardModel';
import { groupByAttention } from '../../../../src/core/domain/handoffAttention';
import { LIMITS, STATUSES, type Handoff } from '../../../../src/core/domain/handoffSchema';
import { makeHandoff } from '../../helpers/handoffFixtures';

const NOW = new Date('2026-02-22T12:00:00.000Z');
const fresh = NOW.toISOString();

function input(handoffs: Handoff[], over: Partial<DashboardInput> = {}, state: Record<string, unknown> = {}): DashboardInput {
  return {
    me: 'claude',
    identityProblem: null,
    trusted: true,
    now: NOW,
    refusals: new Map(),
    folders: [{ root: '/ws', name: 'ws', initialized: true, problem: null, handoffs, config: defaultConfig(), state }],
    ...over,
  };
}

const h = (n: number, over: Partial<Handoff>) =>
  makeHandoff({ handoff_id: `HO-20260222-00${n}`, uid: `01JDASH000000000000000000${n}`, updated_at: fresh, created_at: fresh, ...over });

/** The card buttons of a handoff for a viewer (the catalog's, as the model computes them). */
const cardActions = (x: Handoff, me: string, sessionHandoff: string | null) => dashboardMovesFor(x, { me, sessionHandoff });

describe('dashboard model', () => {
  const store = [
    h(1, { summary: 'mine', to_agents: ['claude'] }),
    h(2, { summary: 'shared', to_agents: ['claude', 'copilot'], owner_mode: 'shared' }),
    h(3, { summary: 'to review', from_agent: 'claude', to_agents: ['codex'], status: 'ready_for_review' }),
    h(4, { summary: 'stuck', to_agents: ['claude'], status: 'blocked' }),
    h(5, { summary: 'not mine', to_agents: ['copilot'] }),
    h(6, { summary: 'done', to_agents: ['claude'], status: 'merged' }),
    h(7, { summary: 'passed on', to_agents: ['claude'], parent_uid: '01JDASH0000000000000000001' }),
  ];

  it('draws the groups of the Handoffs tree, in its order, from the one grouping in the core', () => {
    const m = dashboardModel(input(store));
    const groups = m.folders[0].groups;
    assert.deepEqual(
      groups.map((g) => g.label),
      ['Assigned to me', 'Shared with me', 'Awaiting my review', 'Blocked/Stale', 'Other open handoffs'],
    );
    const byGroup = groupByAttention(store, { me: 'claude', humans: [], config: defaultConfig(), now: NOW });
    for (const g of groups) {
      const roots = byGroup.get(g.group)!.filter((x) => !x.parent_uid || !byGroup.get(g.group)!.some((p) => p.uid === x.parent_uid));
      assert.deepEqual(
        g.cards.map((c) => c.handoffId),
        roots.map((x) => x.handoff_id),
        g.label,
      );
    }
    assert.ok(!JSON.stringify(m).includes('"done"'), 'a merged handoff is drawn');
  });

  it('a handoff passed on from another in the same group is named on its parent card, not drawn as its own', () => {
    const mine = dashboardModel(input(store)).folders[0].groups[0];
    assert.deepEqual(
      mine.cards.map((c) => [c.handoffId, c.chained]),
      [['HO-20260222-001', ['HO-20260222-007']]],
    );
    assert.equal(mine.count, 2, "the tree's count: the passed-on handoff included");
  });

  it('a withdrawn pass is named on its parent card as withdrawn, and counts in no group', () => {
    const gone = h(8, { summary: 'taken back', to_agents: ['copilot'], status: 'withdrawn', parent_uid: '01JDASH0000000000000000001' });
    const mine = dashboardModel(input([...store, gone])).folders[0].groups[0];
    assert.deepEqual(mine.cards[0].chained, ['HO-20260222-007', 'HO-20260222-008 (withdrawn)']);
    assert.equal(mine.count, 2);
  });

  it('leaves out empty review and other groups, like the tree, but keeps the three named ones', () => {
    const groups = dashboardModel(input([])).folders[0].groups;
    assert.deepEqual(
      groups.map((g) => g.group),
      ['assigned', 'shared', 'blockedStale'],
    );
  });

  it('draws no groups for an uninitialized folder, and passes its problem on', () => {
    const m = dashboardModel({
      ...input([]),
      folders: [{ ...input([]).folders[0], initialized: false, problem: 'broken store: fix it' }],
    });
    assert.deepEqual(m.folders[0].groups, []);
    assert.equal(m.folders[0].problem, 'broken store: fix it');
  });

  it('buttons by status: Claim and Skip on queued, Complete on in progress (Start too when I hold it), Approve on review', () => {
    const expected: Record<string, string[]> = {
      queued: ['claim', 'skip'],
      in_progress: ['complete'],
      blocked: [],
      ready_for_review: ['approve'],
      approved: [],
      merged: [],
      escalated: [],
      withdrawn: [],
    };
    for (const status of STATUSES) assert.deepEqual(cardActions(h(1, { status }), 'claude', null), expected[status], status);
    const held = h(1, { status: 'in_progress', claimed_by: 'claude' });
    assert.deepEqual(cardActions(held, 'claude', null), ['start', 'complete']);
    assert.deepEqual(cardActions(held, 'claude', held.handoff_id), ['complete'], 'my running session is on it already');
    assert.deepEqual(cardActions(held, 'codex', null), ['complete'], 'held by someone else');
  });

  it('Assign on the Blocked/Stale card of work nobody could be routed to (as in the tree), not on a skipped or owned one', () => {
    const unroutable = h(2, { status: 'blocked', to_agents: [], owner_mode: 'auto', required_capabilities: ['gpu_training'] });
    assert.deepEqual(cardActions(unroutable, 'human', null), ['assign']);
    const blockedCard = dashboardModel(input([unroutable])).folders[0].groups.find((g) => g.group === 'blockedStale')!;
    assert.deepEqual(
      blockedCard.cards.map((c) => [c.handoffId, c.actions]),
      [['HO-20260222-002', ['assign']]],
    );
    assert.deepEqual(cardActions({ ...unroutable, no_handoff_reason: 'docs only' }, 'human', null), [], 'a recorded skip');
    assert.deepEqual(cardActions({ ...unroutable, to_agents: ['codex'] }, 'human', null), [], 'it has an owner');
  });

  it('every dashboard move of the catalog is a button on the cards whose handoff offers it, with its label; none other is', () => {
    // Handoffs of every status, held by me, unrouted, with conflicts: every move's availability is met by some of them.
    const samples = STATUSES.flatMap((status, i) => [
      h(i, { status, to_agents: ['claude'], claimed_by: status === 'in_progress' ? 'claude' : null }),
      h(i, { status, to_agents: [], owner_mode: 'auto', required_capabilities: ['gpu_training'] }),
    ]);
    const offered = new Set<string>();
    for (const x of samples) {
      const m = dashboardModel(input([x]));
      const card = m.folders[0].groups.flatMap((g) => g.cards).find((c) => c.handoffId === x.handoff_id);
      const catalog = MOVES.filter((mv) => mv.command && mv.dashboard && mv.available(x)).map((mv) => mv.name);
      for (const a of card?.actions ?? []) {
        assert.ok(catalog.includes(a), `${a} on a ${x.status} card, where the catalog does not offer it`);
        offered.add(a);
      }
      for (const mv of DASHBOARD_MOVES)
        assert.deepEqual(m.buttons[mv.name], { label: mv.command.label, hint: mv.dashboard.hint }, `${mv.name}: the page gets its label`);
    }
    const dashboardMoves = MOVES.filter((mv) => mv.command && mv.dashboard).map((mv) => mv.name);
    assert.deepEqual([...offered].sort(), [...dashboardMoves].sort(), 'every move with a command and a dashboard entry shows on a card');
    assert.ok(!MOVES.some((mv) => mv.dashboard && !mv.command), "a dashboard button runs its move's editor command");
  });

  it('active sessions and leases, mine marked, an expired lease flagged', () => {
    const state = {
      activeSessions: {
        claude: { id: 'S1', agent: 'claude', goal: 'Fix it', startedAt: fresh, handoffId: 'HO-20260222-008' },
        codex: { id: 'S2', agent: 'codex', goal: 'Other', startedAt: '2026-02-22T11:00:00.000Z' },
      },
    };
    const leased = [
      h(8, { status: 'in_progress', claimed_by: 'claude', lease_expires_at: '2026-02-22T13:00:00.000Z' }),
      h(9, { status: 'in_progress', claimed_by: 'codex', to_agents: ['codex'], lease_expires_at: '2026-02-22T11:00:00.000Z' }),
    ];
    const f = dashboardModel(input(leased, {}, state)).folders[0];
    assert.deepEqual(
      f.sessions.map((s) => [s.agent, s.goal, s.handoffId, s.mine]),
      [
        ['Codex', 'Other', null, false],
        ['Claude', 'Fix it', 'HO-20260222-008', true],
      ],
    );
    assert.deepEqual(
      f.leases.map((l) => [l.handoffId, l.holder, l.expired, l.mine]),
      [
        ['HO-20260222-008', 'Claude', false, true],
        ['HO-20260222-009', 'Codex', true, false],
      ],
    );
    const card = f.groups.flatMap((g) => g.cards).find((c) => c.handoffId === 'HO-20260222-008')!;
    assert.deepEqual(card.actions, ['complete'], 'no Start: my session runs on it');
  });

  it('the last health from state.json, with when and by whom; none before the first End Session', () => {
    assert.equal(dashboardModel(input([])).folders[0].health, null);
    const state = {
      health: { Build: { status: 'Pass', output: 'ok' }, Tests: { status: 'Fail', output: '1 failing' }, Deploy: 'junk' },
      lastSession: { agent: 'codex', endedAt: fresh, date: fresh },
    };
    const health = dashboardModel(input([], {}, state)).folders[0].health!;
    assert.deepEqual(
      health.checks.map((c) => [c.label, c.status, c.output]),
      [
        ['Build', 'Pass', 'ok'],
        ['Tests', 'Fail', '1 failing'],
        ['Deploy', 'Unknown', ''],
      ],
    );
    assert.deepEqual([health.at, health.agent], [fresh, 'Codex']);
  });

  it('a refusal is shown on its own card only', () => {
    const refusals = new Map([[cardKey('/ws', 'HO-20260222-001'), 'HO-20260222-001 is already claimed by codex.']]);
    const cards = dashboardModel(input(store, { refusals })).folders[0].groups.flatMap((g) => g.cards);
    assert.deepEqual(
      cards.filter((c) => c.refusal).map((c) => [c.handoffId, c.refusal]),
      [['HO-20260222-001', 'HO-20260222-001 is already claimed by codex.']],
    );
  });

  it('a stale card says why', () => {
    const old = h(1, { to_agents: ['claude'], updated_at: '2026-02-20T12:00:00.000Z' });
    const [card] = dashboardModel(input([old])).folders[0].groups.find((g) => g.group === 'blockedStale')!.cards;
    assert.match(card.stale ?? '', /not updated for 48 h/);
  });

  it('Skip records "skipped: <why>" in the history; the longest reason the prompt takes fits the limit', () => {
    assert.equal(skipReason('  not now '), 'skipped: not now');
    assert.equal(skipReason('x'.repeat(MAX_SKIP_REASON)).length, LIMITS.reason);
  });
});
