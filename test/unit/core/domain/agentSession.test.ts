// Holders are sessions (docs/contract.md §4, "Who may act"), and the store version a claimed_session needs (§3).
import * as assert from 'node:assert/strict';
import { assertHolder, isHolder, recordsSession } from '../../../../src/core/domain/agentSession';
import { sessionIdFromEnv } from '../../../../src/core/hooks/vendors';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import { makeHandoff } from '../../helpers/handoffFixtures';
import type { Handoff } from '../../../../src/core/domain/handoffSchema';

const at = '2025-01-01T00:00:00.000Z';
function held(session: Handoff['claimed_session'] | undefined): Handoff {
  return makeHandoff({
    handoff_id: 'HO-20250101-001',
    status: 'in_progress',
    to_agents: ['claude'],
    claimed_by: 'claude',
    claimed_at: at,
    lease_expires_at: '2025-01-01T01:00:00.000Z',
    created_at: at,
    updated_at: at,
    uid: '01JXK000000000000000000001',
    rev: 2,
    ...(session === undefined ? {} : { claimed_session: session }),
  });
}

describe('holders are sessions', () => {
  const a = { id: 'a', worktree: 'wt-one', branch: 'one' };

  it('the holder is the agent and the session that claimed it, in that worktree', () => {
    const h = held(a);
    assert.equal(isHolder(h, 'claude', a), true);
    assert.equal(isHolder(h, 'claude', { ...a, id: 'b' }), false, 'another session');
    assert.equal(isHolder(h, 'claude', { ...a, worktree: 'wt-two' }), false, 'the same session id in another worktree');
    assert.equal(isHolder(h, 'claude', null), false, 'no session');
    assert.equal(isHolder(h, 'codex', a), false, 'another agent');
    // A claim without a session id is held by every session of its agent.
    assert.equal(isHolder(held({ id: null, worktree: 'wt-one', branch: null }), 'claude', { ...a, id: 'z' }), true);
    assert.equal(isHolder(held(undefined), 'claude', null), true);
  });

  it('another session is refused already_claimed with claimedBy and claimedSession; a human is not', () => {
    assert.throws(
      () => assertHolder(held(a), 'claude', { ...a, id: 'b' }, [], 'complete'),
      (e: Error & { reason?: string; details?: Record<string, unknown> }) =>
        e.reason === 'already_claimed' && /another session of claude holds it/.test(e.message),
    );
    assert.doesNotThrow(() => assertHolder(held(a), 'human', null, [], 'release'));
    assert.doesNotThrow(() => assertHolder(held(a), 'dana', null, ['dana'], 'release'));
  });

  it('a claim records its session only when there is one to tell apart (a session id, a linked worktree)', () => {
    assert.equal(recordsSession({ id: null, worktree: 'main', branch: 'main' }), false);
    assert.equal(recordsSession({ id: 's', worktree: 'main', branch: 'main' }), true);
    assert.equal(recordsSession({ id: null, worktree: 'wt', branch: 'x' }), true);
  });

  it("the vendor's variable names the session, the agent's own vendor first", () => {
    assert.equal(sessionIdFromEnv({ CLAUDE_CODE_SESSION_ID: 'c1' }, 'claude'), 'c1');
    assert.equal(sessionIdFromEnv({ CLAUDE_CODE_SESSION_ID: 'c1', CODEX_THREAD_ID: 't1' }, 'codex'), 't1');
    assert.equal(sessionIdFromEnv({ CLAUDE_CODE_SESSION_ID: 'c1', CODEX_THREAD_ID: 't1' }, 'claude'), 'c1');
    assert.equal(sessionIdFromEnv({}, 'claude'), null);
    assert.equal(sessionIdFromEnv({ CLAUDE_CODE_SESSION_ID: 'bad id\n' }, 'claude'), null, 'an id with a line break is no id');
  });

  it('a store is written as version 2 while a record holds claimed_session, as version 1 otherwise, and reads back', () => {
    const plain = StoreSnapshot.parse(JSON.stringify({ version: 1, handoffs: [held(undefined)] }, null, 2) + '\n');
    assert.match(plain.serialize(), /^\{\n {2}"version": 1,\n/);
    const withSession = StoreSnapshot.parse(JSON.stringify({ version: 1, handoffs: [held(a)] }, null, 2) + '\n');
    const text = withSession.serialize();
    assert.match(text, /^\{\n {2}"version": 2,\n/);
    const again = StoreSnapshot.parse(text, false, { previous: withSession });
    assert.deepEqual(again.handoffs[0].claimed_session, a);
    again.replace({ ...again.handoffs[0], claimed_session: undefined, claimed_by: null, status: 'queued' });
    assert.match(again.serialize(), /^\{\n {2}"version": 1,\n/);
  });
});
