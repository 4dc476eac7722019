// Hot files (core/domain/hotFiles.ts): the files another agent is working on, by claim (lease alive) or by its active
// session; whole-path matching on canonical workspace-relative paths, never substrings.
import * as assert from 'node:assert/strict';
import { canonicalRelativePath, hotFilesFor, nextHotFileChange } from '../../../../src/core/domain/hotFiles';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';
import type { SessionRecord } from '../../../../src/core/requests/sessions/sessionState';
import { handoffIn, T0 } from '../../helpers/handoffFixtures';

const NOW = new Date(Date.parse(T0) + 10 * 60_000);
const inMinutes = (m: number) => new Date(NOW.getTime() + m * 60_000).toISOString();

function held(id: string, files: string[], by = 'claude', extra: Partial<Handoff> = {}): Handoff {
  return handoffIn('in_progress', {
    handoff_id: id,
    uid: `01JHOT${id.replace(/\D/g, '').padStart(20, '0')}`,
    files,
    claimed_by: by,
    to_agents: [by],
    lease_expires_at: inMinutes(30),
    ...extra,
  });
}

function session(agent: string, h: Handoff | null): SessionRecord {
  return {
    id: `S-${agent}`,
    agent,
    goal: 'work',
    startedAt: T0,
    handoffId: h?.handoff_id ?? null,
    handoffUid: h?.uid ?? null,
    request_id: null,
  };
}

const keys = (m: Map<string, unknown>) => [...m.keys()];

describe('hot files (core/domain/hotFiles.ts)', () => {
  it("a file in another agent's in-progress handoff is hot for me, naming the agent and the handoff", () => {
    const h = held('HO-20260221-001', ['src/auth/session.ts']);
    const hot = hotFilesFor('human', [h], [], NOW);
    assert.deepEqual(hot.get('src/auth/session.ts'), [
      { agent: 'claude', handoff_id: 'HO-20260221-001', uid: h.uid, summary: h.summary, status: 'in_progress', via: 'claim' },
    ]);
  });

  it('my own claims are not hot for me; queued and finished work are not hot for anyone', () => {
    const handoffs = [
      held('HO-20260221-001', ['a.ts'], 'human'),
      handoffIn('queued', { handoff_id: 'HO-20260221-002', files: ['b.ts'] }),
      handoffIn('merged', { handoff_id: 'HO-20260221-004', files: ['d.ts'], claimed_by: 'claude' }),
      handoffIn('escalated', { handoff_id: 'HO-20260221-005', files: ['e.ts'], claimed_by: 'claude' }),
    ];
    assert.deepEqual(keys(hotFilesFor('human', handoffs, [], NOW)), []);
  });

  it('work held by another agent stays hot while blocked, in review and approved, except for its reviewer, until it is merged', () => {
    // handoffIn: codex → claude, claimed by claude; codex (from_agent) reviews it.
    const handoffs = [
      handoffIn('blocked', { handoff_id: 'HO-20260221-001', files: ['a.ts'] }),
      handoffIn('ready_for_review', { handoff_id: 'HO-20260221-002', files: ['b.ts'] }),
      handoffIn('approved', { handoff_id: 'HO-20260221-003', files: ['c.ts'] }),
    ];
    assert.deepEqual(keys(hotFilesFor('human', handoffs, [], NOW)), ['a.ts', 'b.ts', 'c.ts']);
    assert.deepEqual(keys(hotFilesFor('codex', handoffs, [], NOW)), ['a.ts'], 'the reviewer may open what it reviews');
    assert.deepEqual(keys(hotFilesFor('claude', handoffs, [], NOW)), [], 'nor for the holder');
  });

  it('exact paths: a file is not hot because its name contains, or is contained in, a hot path', () => {
    const hot = hotFilesFor('human', [held('HO-20260221-001', ['src/auth/session.ts', 'lib'])], [], NOW);
    for (const other of ['src/auth/session.ts.bak', 'auth/session.ts', 'src/auth', 'session.ts', 'lib/x.ts', 'Src/auth/session.ts'])
      assert.equal(hot.has(canonicalRelativePath(other)), false, other);
    assert.equal(hot.has('src/auth/session.ts'), true);
    assert.equal(hot.has('lib'), true);
  });

  it('paths are canonicalised on both sides: ./, doubled and back slashes', () => {
    assert.equal(canonicalRelativePath('./src//auth\\session.ts'), 'src/auth/session.ts');
    const hot = hotFilesFor('human', [held('HO-20260221-001', ['./src//auth/session.ts'])], [], NOW);
    assert.deepEqual(keys(hot), ['src/auth/session.ts']);
  });

  it('a claim whose lease ran out is no longer hot; nextHotFileChange says when that happens', () => {
    const h = held('HO-20260221-001', ['a.ts'], 'claude', { lease_expires_at: inMinutes(5) });
    assert.equal(hotFilesFor('human', [h], [], NOW).has('a.ts'), true);
    assert.equal(nextHotFileChange([h], 'human', NOW)?.toISOString(), inMinutes(5));
    const later = new Date(NOW.getTime() + 5 * 60_000);
    assert.equal(hotFilesFor('human', [h], [], later).has('a.ts'), false);
    assert.equal(nextHotFileChange([h], 'human', later), null);
    assert.equal(nextHotFileChange([h], 'claude', NOW), null, "claude's own lease changes nothing for claude");
  });

  it("another agent's active session keeps the files of the handoff it started from hot (whoever holds it now)", () => {
    const h = handoffIn('ready_for_review', { handoff_id: 'HO-20260221-001', files: ['a.ts'], claimed_by: null });
    const sessions = [session('claude', h)];
    assert.deepEqual(
      hotFilesFor('human', [h], sessions, NOW)
        .get('a.ts')
        ?.map((x) => [x.agent, x.via]),
      [['claude', 'session']],
    );
    assert.equal(hotFilesFor('claude', [h], sessions, NOW).size, 0, 'not for the session owner');
    const merged = { ...h, status: 'merged' as const };
    assert.equal(hotFilesFor('human', [merged], sessions, NOW).size, 0, 'a finished handoff is not hot');
  });

  it('a session finds its handoff by uid first (ids can be renumbered by a merge), else by id; one holder entry per handoff', () => {
    const h = held('HO-20260221-001', ['a.ts']);
    const renumbered = { ...session('claude', h), handoffId: 'HO-20260221-999' };
    const hot = hotFilesFor('human', [h], [renumbered], NOW);
    assert.deepEqual(
      hot.get('a.ts')?.map((x) => x.via),
      ['claim'],
      'the claim and the session name the same handoff: listed once',
    );
    const byId = { ...session('copilot', h), handoffUid: null };
    assert.deepEqual(
      hotFilesFor('human', [h], [byId], NOW)
        .get('a.ts')
        ?.map((x) => x.agent),
      ['claude', 'copilot'],
    );
  });

  it('two agents on one file: both are listed, in handoff order', () => {
    const hot = hotFilesFor('human', [held('HO-20260221-001', ['a.ts']), held('HO-20260221-002', ['a.ts', 'b.ts'], 'codex')], [], NOW);
    assert.deepEqual(
      hot.get('a.ts')?.map((x) => `${x.agent}:${x.handoff_id}`),
      ['claude:HO-20260221-001', 'codex:HO-20260221-002'],
    );
    assert.deepEqual(keys(hot), ['a.ts', 'b.ts']);
  });
});
