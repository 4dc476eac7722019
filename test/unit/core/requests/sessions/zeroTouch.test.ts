// Zero-touch sessions (docs/agentsync-documentation.md, "Zero-touch sessions"): the deterministic summary, the routing
// by configured defaults, the one-line pick-up prompt, the waiting handoff Start Session claims, and the reminder time.
import * as assert from 'node:assert/strict';
import { durationText } from '../../../../../src/core/requests/sessions/durationText';
import { pickUpPrompt } from '../../../../../src/core/requests/sessions/pickUpPrompt';
import { nextReminderAt } from '../../../../../src/core/requests/sessions/sessionReminder';
import type { SessionRecord } from '../../../../../src/core/requests/sessions/sessionState';
import { waitingHandoffsFor } from '../../../../../src/core/requests/sessions/waitingHandoffPick';
import { zeroTouchRoute, ZeroTouchSettingError } from '../../../../../src/core/requests/sessions/zeroTouchRouting';
import { zeroTouchSummary, type ZeroTouchInput } from '../../../../../src/core/requests/sessions/zeroTouchSummary';
import { handoffIn, makeHandoff, T0 } from '../../../helpers/handoffFixtures';

const ENDED = new Date(Date.parse(T0) + 80 * 60_000);
const SESSION: SessionRecord = {
  id: '01JSESSION0000000000000000',
  agent: 'codex',
  goal: 'Fix the token refresh race',
  startedAt: T0,
  handoffId: null,
  handoffUid: null,
  request_id: null,
};
const GIT = { branch: 'fix/refresh', commit: 'abc1234', hotFiles: ['src/b.ts', 'README.md', 'src/a.ts', 'src/a.ts'] };

describe('zero-touch End Session: the summary (core/requests/sessions/zeroTouchSummary.ts)', () => {
  const input: ZeroTouchInput = { agent: 'codex', git: GIT, session: SESSION, handoff: null, endedAt: ENDED };

  it('is built from git and the session only, files sorted and de-duplicated', () => {
    const s = zeroTouchSummary(input);
    assert.deepEqual(s, {
      handoffSummary: 'Fix the token refresh race: 3 files changed on fix/refresh',
      sessionSummary: 'Fix the token refresh race: 3 files changed on fix/refresh (zero-touch)',
      files: ['README.md', 'src/a.ts', 'src/b.ts'],
      notes: [
        'Ended by Codex with zero-touch End Session at 2026-02-21T22:20:00.000Z; nothing was asked.',
        `Session 01JSESSION0000000000000000: started ${T0} (1 h 20 min); goal: Fix the token refresh race`,
        'Branch: fix/refresh @ abc1234',
        'Changed files (3): README.md, src/a.ts, src/b.ts',
      ].join('\n'),
    });
  });

  it('is deterministic: the same input gives the same text, whatever order git listed the files in', () => {
    const again = zeroTouchSummary({ ...input, git: { ...GIT, hotFiles: [...GIT.hotFiles].reverse() } });
    assert.deepEqual(again, zeroTouchSummary(input));
  });

  it('names the claimed handoff, its open todos and its notes', () => {
    const h = handoffIn('in_progress', {
      summary: 'Review the auth fix',
      notes: 'Watch the retry path.',
      todos: [
        { id: 't1', content: 'Reproduce', status: 'completed', priority: 'high' },
        { id: 't2', content: 'Add a regression test', status: 'pending', priority: 'medium' },
      ],
    });
    const s = zeroTouchSummary({
      ...input,
      session: { ...SESSION, goal: h.summary, handoffId: h.handoff_id, handoffUid: h.uid! },
      handoff: h,
    });
    assert.equal(s.handoffSummary, 'Follow up HO-20260221-001 (Review the auth fix): 3 files changed on fix/refresh');
    assert.match(s.notes, new RegExp(`^Started from HO-20260221-001 \\(${h.uid}\\): Review the auth fix$`, 'm'));
    assert.match(s.notes, /^Open todos: \[pending\] Add a regression test$/m);
    assert.match(s.notes, /^Its notes: Watch the retry path\.$/m);
  });

  it('without a session: says so, and the headline names the agent; files git reports that a record cannot hold are left out', () => {
    const s = zeroTouchSummary({ ...input, session: null, git: { branch: null, commit: null, hotFiles: ['ok.ts', 'bad\nname.ts'] } });
    assert.equal(s.handoffSummary, "Codex's session: 1 file changed on no branch");
    assert.deepEqual(s.files, ['ok.ts']);
    assert.match(s.notes, /^No session was open for this agent\.$/m);
    assert.match(s.notes, /^Branch: no branch$/m);
  });

  it('durations read like people write them', () => {
    assert.deepEqual([0, 59_000, 45 * 60_000, 2 * 3_600_000, 200 * 60_000].map(durationText), [
      'less than a minute',
      'less than a minute',
      '45 min',
      '2 h',
      '3 h 20 min',
    ]);
  });
});

describe('zero-touch End Session: routing by configured defaults (core/requests/sessions/zeroTouchRouting.ts)', () => {
  const none = { handoffTo: [], handoffCapabilities: [] };

  it('1. handoffTo: one agent → single, two → shared (names normalized)', () => {
    assert.deepEqual(zeroTouchRoute({ ...none, handoffTo: ['Claude'] }, 'codex', null), {
      owner_mode: 'single',
      to_agents: ['claude'],
      why: 'agentsync.automation.handoffTo names claude',
    });
    assert.deepEqual(zeroTouchRoute({ handoffTo: ['claude', 'copilot'], handoffCapabilities: ['pr_review'] }, 'codex', null).to_agents, [
      'claude',
      'copilot',
    ]);
  });

  it('2. handoffCapabilities → owner_mode auto, for the core routing', () => {
    const r = zeroTouchRoute({ ...none, handoffCapabilities: ['pr_review'] }, 'codex', null);
    assert.deepEqual([r.owner_mode, r.required_capabilities, r.to_agents], ['auto', ['pr_review'], undefined]);
  });

  it("3. no default: back to the claimed handoff's originator; 4. else a human", () => {
    const h = makeHandoff({ from_agent: 'claude', to_agents: ['codex'] });
    assert.deepEqual(zeroTouchRoute(none, 'codex', h).to_agents, ['claude']);
    assert.deepEqual(zeroTouchRoute(none, 'claude', h).to_agents, ['human'], 'not back to myself');
    assert.deepEqual(zeroTouchRoute(none, 'codex', null).to_agents, ['human']);
  });

  it('an unusable setting is refused, naming the setting and what to do', () => {
    assert.throws(
      () => zeroTouchRoute({ ...none, handoffTo: ['a', 'b', 'c'] }, 'codex', null),
      (e: Error) => e instanceof ZeroTouchSettingError && /handoffTo lists 3 agents.*Keep one or two/.test(e.message),
    );
    assert.throws(
      () => zeroTouchRoute({ ...none, handoffTo: ['bad/id'] }, 'codex', null),
      /handoffTo has "bad\/id", which is not an agent id/,
    );
    assert.throws(
      () => zeroTouchRoute({ ...none, handoffCapabilities: ['has space'] }, 'codex', null),
      /handoffCapabilities has "has space"/,
    );
  });
});

describe('zero-touch End Session: the pick-up prompt (core/requests/sessions/pickUpPrompt.ts)', () => {
  it('one line naming the uid, the repo, the summary and the claim command for the owner', () => {
    const h = makeHandoff({ summary: 'Review the fix\nunder load', to_agents: ['claude'] });
    assert.equal(
      pickUpPrompt(h, 'webapp'),
      `Pick up handoff ${h.uid} in webapp: Review the fix under load — run \`agentsync claim ${h.uid} --agent claude\``,
    );
  });

  it('shared: either owner may claim it; blocked (unroutable): a human assigns it', () => {
    const shared = makeHandoff({ owner_mode: 'shared', to_agents: ['claude', 'copilot'] });
    assert.match(pickUpPrompt(shared, 'webapp'), /run `agentsync claim \S+` as claude or copilot$/);
    const blocked = makeHandoff({ status: 'blocked', owner_mode: 'auto', to_agents: [], required_capabilities: ['legal'] });
    assert.match(pickUpPrompt(blocked, 'webapp'), /needs an owner \(blocked\).*`agentsync assign \S+ --to <agent> --agent human`$/);
  });
});

describe('zero-touch Start Session: the waiting handoff it claims (core/requests/sessions/waitingHandoffPick.ts)', () => {
  const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
  const q = (id: string, extra: object) => makeHandoff({ handoff_id: `HO-20260221-${id}`, created_at: at(0), ...extra });

  it('queued work I own: mine alone before shared, then high → medium (or none) → low, then the oldest, then the id', () => {
    const list = [
      q('001', { to_agents: ['claude'], priority: 'low' }),
      q('002', { to_agents: ['claude', 'codex'], owner_mode: 'shared', priority: 'high' }),
      q('003', { to_agents: ['claude'], priority: 'high', created_at: at(5) }),
      q('004', { to_agents: ['claude'], priority: null }),
      q('005', { to_agents: ['claude'], priority: 'high', created_at: at(1) }),
      q('006', { to_agents: ['codex'], priority: 'high' }),
      q('007', { to_agents: ['claude'], status: 'in_progress', claimed_by: 'claude' }),
      q('008', { to_agents: ['claude'], priority: 'medium' }),
    ];
    assert.deepEqual(
      waitingHandoffsFor(list, 'claude').map((h) => h.handoff_id.slice(-3)),
      ['005', '003', '004', '008', '001', '002'],
    );
    assert.deepEqual(waitingHandoffsFor(list, 'copilot'), []);
  });
});

describe('session reminders (core/requests/sessions/sessionReminder.ts)', () => {
  const start = Date.parse(T0);
  it('due `hours` after the start, then `hours` after the last prompt; off at 0 or an unusable value', () => {
    assert.equal(nextReminderAt(T0, 2, null), start + 2 * 3_600_000);
    assert.equal(nextReminderAt(T0, 0.5, start + 5 * 3_600_000), start + 5.5 * 3_600_000);
    for (const off of [0, -1, Number.NaN]) assert.equal(nextReminderAt(T0, off, null), null, String(off));
    assert.equal(nextReminderAt('not a time', 2, null), null);
  });
});
