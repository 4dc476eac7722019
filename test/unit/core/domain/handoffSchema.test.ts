// handoffs.json (docs/contract.md §3): what loads and what is refused, with the field named; a refused store is never
// overwritten by a request.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { handoffsFileSchema, describeIssues, type Handoff } from '../../../../src/core/domain/handoffSchema';
import { StoreSnapshot } from '../../../../src/core/store/storeSnapshot';
import { makeHandoff, SEED_EXAMPLE_STORE } from '../../helpers/handoffFixtures';
import { removeTempDirs, TestWorkspace } from '../../helpers/testWorkspace';

function storeText(handoffs: unknown[]): string {
  return JSON.stringify({ version: 1, handoffs });
}

/** Parses a store holding `record` and returns the refusal message (or fails if it loads). */
function refusal(record: unknown): string {
  try {
    StoreSnapshot.parse(storeText([record]));
  } catch (e) {
    assert.equal((e as { reason?: string }).reason, 'store_invalid');
    return (e as Error).message;
  }
  assert.fail(`expected ${JSON.stringify(record).slice(0, 200)} to be refused`);
}

/** The record in plain JSON with some fields replaced or removed (undefined removes). */
function variant(patch: Record<string, unknown>): Record<string, unknown> {
  const base = JSON.parse(JSON.stringify(makeHandoff())) as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

describe('handoffs.json schema (docs/contract.md §3)', () => {
  after(removeTempDirs);

  describe('accepts', () => {
    it('the example record of the original plan, as written', () => {
      const snap = StoreSnapshot.parse(SEED_EXAMPLE_STORE);
      assert.equal(snap.handoffs.length, 1);
      const h = snap.handoffs[0];
      assert.equal(h.handoff_id, 'HO-20260221-001');
      assert.deepEqual(h.to_agents, ['claude', 'copilot']);
      assert.equal(h.owner_mode, 'shared');
      assert.equal(h.state_history[0].reason, 'session ended with hot files');
      assert.match(h.uid!, /^[0-9A-HJKMNP-TV-Z]{26}$/, 'a record without uid gets one on load');
      assert.equal(h.rev, 0);
    });

    it('a file without any of the optional additions (AgentSync 0.3) loads, and a request on it works', async () => {
      const ws = new TestWorkspace();
      fs.writeFileSync(ws.layout.handoffsFile, SEED_EXAMPLE_STORE);
      const res = await ws.dispatch({ action: 'claimHandoff', handoffId: 'HO-20260221-001', agent: 'claude' });
      assert.equal(res.ok, true, JSON.stringify(res));
      const h = ws.stored('HO-20260221-001');
      assert.equal(h.status, 'in_progress');
      assert.equal(h.rev, 1);
      assert.match(h.uid!, /^[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.equal(h.branch, 'codex/as-210-auth-timeout', 'the plan fields survive the rewrite');
      assert.deepEqual(h.required_capabilities, ['policy_review', 'pr_review']);
    });

    it('a minimal record: optional plan fields get their defaults', () => {
      const minimal = {
        handoff_id: 'HO-20260221-007',
        from_agent: 'codex',
        owner_mode: 'single',
        to_agents: ['claude'],
        status: 'queued',
        summary: 's',
        created_at: '2026-02-21T21:00:00.000Z',
        updated_at: '2026-02-21T21:00:00Z',
      };
      const h = StoreSnapshot.parse(storeText([minimal])).handoffs[0];
      assert.deepEqual(
        [h.task_id, h.notes, h.files, h.required_capabilities, h.no_handoff_reason, h.prior_attempts, h.state_history, h.branch, h.commit],
        [null, '', [], [], null, 0, [], null, null],
      );
    });

    it('a record with every addition filled in', () => {
      const full = makeHandoff({
        rev: 9,
        claimed_by: 'claude',
        claimed_at: '2026-02-21T21:01:00.000Z',
        lease_expires_at: '2026-02-21T21:31:00+00:00',
        status: 'in_progress',
        return_to: 'codex',
        parent_uid: '01HZX3N5Q8R7S6T5V4W3X2Y1Z0',
        chain: ['codex', 'claude'],
        reason: 'code_review',
        phase: 'validate',
        priority: 'high',
        result: { status: 'partial', decision: 'PROCEED', findings: { risk: 'low' }, context_summary: 'ok', issues: [], tokens_used: 120 },
        todos: [{ id: '1', content: 'write test', status: 'pending', priority: 'high' }],
        conflicts: [{ field: 'claimed_by', ours: 'claude', theirs: 'copilot', resolved_to: 'claude', at: '2026-02-21T21:05:00.000Z' }],
      });
      const h = StoreSnapshot.parse(storeText([full])).handoffs[0];
      assert.equal(h.todos?.[0].content, 'write test');
      assert.equal(h.conflicts?.[0].resolved_to, 'claude');
    });

    it('a skipped handoff: no owners needed when no_handoff_reason says why', () => {
      const skipped = variant({ owner_mode: 'single', to_agents: [], status: 'blocked', no_handoff_reason: 'docs-only change' });
      assert.equal(StoreSnapshot.parse(storeText([skipped])).handoffs[0].no_handoff_reason, 'docs-only change');
    });

    it('an unroutable auto handoff (blocked, no owners, its capabilities kept)', () => {
      const blocked = variant({ owner_mode: 'auto', to_agents: [], required_capabilities: ['quantum'], status: 'blocked' });
      assert.equal(StoreSnapshot.parse(storeText([blocked])).handoffs.length, 1);
    });
  });

  describe('refuses, naming the field', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['a status outside the lifecycle', { status: 'done' }, /handoffs\.0\.status/],
      ['an agent id in Title Case', { from_agent: 'Codex' }, /handoffs\.0\.from_agent: agent ids are lowercase/],
      ['an agent id with a space', { to_agents: ['claude code'] }, /handoffs\.0\.to_agents\.0/],
      ['an empty agent id', { to_agents: [''] }, /handoffs\.0\.to_agents\.0/],
      ['an absolute POSIX file path', { files: ['/etc/passwd'] }, /handoffs\.0\.files\.0: path "\/etc\/passwd" is absolute/],
      ['an absolute Windows file path', { files: ['C:\\Users\\x.ts'] }, /handoffs\.0\.files\.0: .* is absolute/],
      ['a UNC path', { files: ['\\\\server\\share\\x'] }, /handoffs\.0\.files\.0: .* is absolute/],
      ['a path starting with ..', { files: ['../outside.ts'] }, /handoffs\.0\.files\.0: .* contains "\.\."/],
      ['a path escaping through ..', { files: ['src/../../outside.ts'] }, /contains "\.\."/],
      ['a path escaping through .. with backslashes', { files: ['src\\..\\..\\x'] }, /contains "\.\."/],
      ['a path with a newline', { files: ['a\nb.ts'] }, /control characters/],
      [
        'single with 2 owners',
        { owner_mode: 'single', to_agents: ['claude', 'copilot'] },
        /handoffs\.0\.to_agents: owner_mode "single" needs exactly 1/,
      ],
      ['single with no owner', { owner_mode: 'single', to_agents: [] }, /owner_mode "single" needs exactly 1/],
      [
        'shared with 1 owner',
        { owner_mode: 'shared', to_agents: ['claude'] },
        /handoffs\.0\.to_agents: owner_mode "shared" needs exactly 2/,
      ],
      [
        'shared with the same owner twice',
        { owner_mode: 'shared', to_agents: ['claude', 'claude'] },
        /owner_mode "shared" needs exactly 2 different/,
      ],
      [
        'auto without required capabilities',
        { owner_mode: 'auto', to_agents: [], required_capabilities: [] },
        /handoffs\.0\.required_capabilities: owner_mode "auto" needs at least one/,
      ],
      ['an unknown key', { assignee: 'claude' }, /handoffs\.0: unknown field\(s\) "assignee"/],
      [
        'an unknown key in a history entry',
        { state_history: [{ status: 'queued', agent: 'codex', timestamp: '2026-02-21T21:00:00.000Z', reason: null, by: 'x' }] },
        /state_history\.0: unknown field/,
      ],
      ['an over-long summary', { summary: 's'.repeat(2_001) }, /handoffs\.0\.summary/],
      ['an over-long task_id', { task_id: 't'.repeat(201) }, /handoffs\.0\.task_id/],
      ['over-long notes', { notes: 'n'.repeat(20_001) }, /handoffs\.0\.notes/],
      [
        'an over-long history reason',
        { state_history: [{ status: 'queued', agent: 'codex', timestamp: '2026-02-21T21:00:00.000Z', reason: 'r'.repeat(2_001) }] },
        /state_history\.0\.reason/,
      ],
      ['an over-long file path', { files: ['a/'.repeat(501)] }, /longer than 1000/],
      ['too many files', { files: Array.from({ length: 501 }, (_, i) => `f${i}.ts`) }, /handoffs\.0\.files/],
      ['an empty summary', { summary: '' }, /handoffs\.0\.summary/],
      ['an empty no_handoff_reason', { no_handoff_reason: '' }, /handoffs\.0\.no_handoff_reason/],
      ['a malformed handoff_id', { handoff_id: 'HO-1' }, /handoff ids look like HO-YYYYMMDD-NNN/],
      ['a timestamp that is not ISO 8601', { created_at: 'yesterday' }, /handoffs\.0\.created_at/],
      ['negative prior_attempts', { prior_attempts: -1 }, /handoffs\.0\.prior_attempts/],
      ['a missing summary', { summary: undefined }, /handoffs\.0\.summary/],
      ['a malformed uid', { uid: 'not-a-ulid' }, /uid is a ULID/],
    ];
    for (const [what, patch, expected] of cases) {
      it(what, () => {
        assert.match(refusal(variant(patch)), expected);
      });
    }

    it('a file with the wrong version or shape', () => {
      for (const text of [
        '{"version":0,"handoffs":[]}',
        '{"version":"2","handoffs":[]}',
        '{"handoffs":[]}',
        '[]',
        '{"version":1,"handoffs":[],"extra":1}',
      ]) {
        assert.throws(
          () => StoreSnapshot.parse(text),
          (e: Error & { reason?: string }) => e.reason === 'store_invalid',
          text,
        );
      }
    });

    it('a store of a later version (docs/contract.md §3): store_too_new, saying to upgrade; versions 1, 2 and 3 are read', () => {
      assert.throws(
        () => StoreSnapshot.parse('{"version":4,"handoffs":[]}'),
        (e: Error & { reason?: string }) => e.reason === 'store_too_new' && /Upgrade AgentSync/.test(e.message),
      );
      assert.equal(StoreSnapshot.parse('{"version":3,"handoffs":[]}').handoffs.length, 0);
      assert.equal(StoreSnapshot.parse('{"version":2,"handoffs":[]}').handoffs.length, 0);
      assert.equal(StoreSnapshot.parse('{"version":1,"handoffs":[]}').handoffs.length, 0);
    });

    it('broken JSON, with a message that says what to do', () => {
      assert.throws(
        () => StoreSnapshot.parse('{"version":1,'),
        (e: Error & { reason?: string }) => e.reason === 'store_invalid' && /not valid JSON.*nothing was changed/.test(e.message),
      );
    });

    it('duplicate handoff_ids', () => {
      const a = makeHandoff();
      const b = makeHandoff();
      assert.throws(
        () => StoreSnapshot.parse(storeText([a, b])),
        (e: Error) => /duplicate handoff_id HO-20260221-001/.test(e.message),
      );
    });

    it('a request against an invalid store is refused with store_invalid and the store is left as it was', async () => {
      const ws = new TestWorkspace();
      const text = storeText([variant({ owner_mode: 'shared', to_agents: ['claude'] })]);
      fs.writeFileSync(ws.layout.handoffsFile, text);
      const res = await ws.dispatch({
        action: 'createHandoff',
        handoff: { from_agent: 'codex', owner_mode: 'single', to_agents: ['claude'], summary: 'x' },
      });
      assert.equal(res.ok, false);
      assert.equal(res.reason, 'store_invalid');
      assert.match(res.message!, /does not match the schema/);
      assert.equal(fs.readFileSync(ws.layout.handoffsFile, 'utf8'), text);
    });
  });

  it('describeIssues names at most five problems, each with its path', () => {
    const bad = {
      version: 1,
      handoffs: [variant({ status: 'x', from_agent: 'X', summary: '', task_id: 7, owner_mode: 'nope', prior_attempts: -2 })],
    };
    const parsed = handoffsFileSchema.safeParse(bad);
    assert.equal(parsed.success, false);
    const text = describeIssues(parsed.error);
    assert.equal(text.split('; ').length, 5);
    for (const part of text.split('; ')) assert.match(part, /^handoffs\.0\.\w+/);
  });

  it('a valid record round-trips through the store serialization unchanged', () => {
    const h: Handoff = makeHandoff({ notes: 'multi\nline "quoted" \u2028 text', files: ['a b/c`d.ts'] });
    const snap = StoreSnapshot.parse(storeText([h]));
    const again = StoreSnapshot.parse(snap.serialize());
    assert.deepEqual(again.handoffs, snap.handoffs);
  });
});
