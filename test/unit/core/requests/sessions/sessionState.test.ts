// state.json's agent sessions per (agent, worktree) (src/core/requests/sessions/sessionState.ts): two sessions of one
// agent in two worktrees are both live for the drop zone (docs/contract.md §4, "Who may act").
import * as assert from 'node:assert/strict';
import {
  liveSessionIds,
  sessionFields,
  withoutWorktreeSession,
  withWorktreeSession,
  worktreeSessionsOf,
  type SessionRecord,
} from '../../../../../src/core/requests/sessions/sessionState';

const record = (agent: string, id: string, worktree: string): SessionRecord => ({
  id: `ULID-${id}`,
  agent,
  goal: 'g',
  startedAt: '2026-01-01T00:00:00.000Z',
  handoffId: null,
  handoffUid: null,
  request_id: null,
  agentSession: { id, worktree },
});

describe('state.json agent sessions per worktree', () => {
  it('two sessions of one agent started in two worktrees are each the live session of its worktree', () => {
    let list = withWorktreeSession([], { agent: 'claude', id: 'a', worktree: 'wt-a', startedAt: 't1' });
    list = withWorktreeSession(list, { agent: 'claude', id: 'b', worktree: 'wt-b', startedAt: 't2' });
    // activeSessions keeps only the latest session of claude (b); the worktree list keeps both.
    const state = { ...sessionFields(new Map([['claude', record('claude', 'b', 'wt-b')]])), agentSessions: list };
    assert.deepEqual(liveSessionIds(state, 'claude', 'wt-a'), ['a']);
    assert.deepEqual(liveSessionIds(state, 'claude', 'wt-b'), ['b']);
    assert.deepEqual(liveSessionIds(state, 'codex', 'wt-a'), []);
  });

  it('a later session of the agent in the same worktree supersedes the earlier one', () => {
    let list = withWorktreeSession([], { agent: 'claude', id: 'a', worktree: 'wt', startedAt: 't1' });
    list = withWorktreeSession(list, { agent: 'claude', id: 'a2', worktree: 'wt', startedAt: 't2' });
    assert.deepEqual(liveSessionIds({ agentSessions: list }, 'claude', 'wt'), ['a2']);
  });

  it('a state.json written before agentSessions still gives the session its activeSessions names', () => {
    const state = sessionFields(new Map([['claude', record('claude', 'old', 'wt')]]));
    assert.deepEqual(liveSessionIds(state, 'claude', 'wt'), ['old']);
  });

  it('ending a session removes only it; with no id, the agent in that worktree; with no worktree, the agent', () => {
    const list = [
      { agent: 'claude', id: 'a', worktree: 'wt-a', startedAt: '' },
      { agent: 'claude', id: 'b', worktree: 'wt-b', startedAt: '' },
      { agent: 'codex', id: 'c', worktree: 'wt-a', startedAt: '' },
    ];
    assert.deepEqual(
      withoutWorktreeSession(list, 'claude', { id: 'a', worktree: 'wt-a' }).map((w) => w.id),
      ['b', 'c'],
    );
    assert.deepEqual(
      withoutWorktreeSession(list, 'claude', { id: 'zz', worktree: 'wt-a' }).map((w) => w.id),
      ['a', 'b', 'c'],
      'another session id ends nothing',
    );
    assert.deepEqual(
      withoutWorktreeSession(list, 'claude', { id: null, worktree: 'wt-b' }).map((w) => w.id),
      ['a', 'c'],
    );
    assert.deepEqual(
      withoutWorktreeSession(list, 'claude', null).map((w) => w.id),
      ['c'],
    );
  });

  it('malformed entries are ignored', () => {
    const state = { agentSessions: [null, 'x', { agent: 'claude', worktree: 'wt' }, { agent: 'claude', id: 'ok', worktree: 'wt' }] };
    assert.deepEqual(
      worktreeSessionsOf(state).map((w) => w.id),
      ['ok'],
    );
  });
});
